// Named by the test helpers' route table, which every cold start loads: apart from mailbox.ts (zod).
export const MAIL_NOT_FOUND = 'Message not found';
