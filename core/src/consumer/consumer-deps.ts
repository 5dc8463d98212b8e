import type { CoreDeps } from '../deps.js';
import type { MailSender } from '../mail/ports.js';

export interface ConsumerDeps extends CoreDeps {
  readonly consumer: {
    /** Sends magic links; without one, `onMagicLink` is the only way a link leaves (development). */
    readonly mailer?: MailSender;
    /** Where an emailed link points: `<base>/consumer/verify?token=…`. */
    readonly linkBase: () => string;
    /** Called with every magic link made (the development host logs it, clearly marked). */
    readonly onMagicLink?: (email: string, link: string) => void;
  };
}
