export { createSmtpInbound, type SmtpInbound } from './smtp-inbound.js';
export { SMTP_INBOUND_DEFAULTS, type SmtpInboundOptions, type SmtpTlsOptions } from './options.js';
export { type SmtpLogger } from './logger.js';
export { replyForVerdict, replyForDelivery, REPLIES, type IngressVerdict, type SmtpReply } from './replies.js';
export { createNodemailerMailSender, type NodemailerMailSender, type NodemailerMailSenderOptions } from './nodemailer-mail-sender.js';
