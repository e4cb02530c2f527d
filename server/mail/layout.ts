// The frame lives beside the app's configuration, so the admin email log previews
// a message exactly as the sender draws it.
export { htmlFromLayout, renderEmail, type EmailContent } from '../../src/config/email-layout';
