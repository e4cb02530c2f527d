import { AccountSettings } from '@/features/account/components/account-settings';

export default AccountSettings;
