/**
 * What a notification says of its secret: the redacted form, and where the secret was mailed only
 * when this host mails it. A host without outbound mail (development without SMTP_OUTBOUND_URL)
 * sends it nowhere, not even to its log, so the notification says nothing about sending.
 */
export const notificationBody = (redacted: string, mailedTo: string | undefined): string =>
  mailedTo === undefined ? redacted : `${redacted} (sent to ${mailedTo})`;

/** What it says once mailing the secret failed: not where it went, but that it did not go. */
export const unmailedBody = (redacted: string, address: string): string => `${redacted} (could not be mailed to ${address})`;
