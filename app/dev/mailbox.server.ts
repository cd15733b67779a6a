// The development mailbox (/dev/mailbox, development builds only): the outbox as the delivery code
// records it (app/platform/email-delivery.server.ts), with each e-mail's delivery status, and the
// texts the stand-in SMS provider received (app/dev/dev-sms.server.ts).
export { recentMail, renderedMail, type MailboxEntry } from "~/platform/email-status.server";
