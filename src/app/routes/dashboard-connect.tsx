import { ConnectPhoneSystem } from '@/features/calls/components/connect-phone-system';

export default ConnectPhoneSystem;
