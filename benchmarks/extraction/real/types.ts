import type { PackageRef } from './packages.js';
import type { Rng } from './random.js';

export type LinkPurpose = 'sign_in' | 'verify_email' | 'password_reset' | 'invite' | 'other';

/** A secret a rendered message holds, taken from the template variable that carries it. */
export interface Secret {
  readonly kind: 'otp' | 'magic_link';
  readonly value: string;
  readonly link_purpose?: LinkPurpose;
}

/** One message as the product would send it, before MIME. */
export interface Rendered {
  readonly template: string;
  readonly lang: string;
  readonly subject: string;
  readonly text?: string;
  readonly html?: string;
  /** The display name of the sender, when the product sets one. */
  readonly fromName?: string;
  /** The secret a user is asked to use first; absent for mail that holds none. */
  readonly secret?: Secret;
  /** A second secret in the same message. */
  readonly also?: readonly Secret[];
  /** Files the product attaches (a reported message, for one). */
  readonly attachments?: readonly { readonly filename: string; readonly contentType: string; readonly content: string }[];
  /** The template and catalogue files read, relative to the package root. */
  readonly source: string;
}

/** What a product adapter gets: its packages' unpacked roots (in the order it listed them) and seeded streams. */
export interface AdapterContext {
  readonly roots: readonly string[];
  /** The stream for one render; the same key gives the same values on every build. */
  readonly rng: (key: string) => Rng;
  /** Renders per template and language. */
  readonly reps: number;
}

/** One product of the real-package corpus: which packages it reads and how it renders their mail. */
export interface Adapter {
  readonly product: string;
  readonly packages: readonly PackageRef[];
  /** The product's messages; a promise when the adapter loads ES modules of its package. */
  readonly render: (ctx: AdapterContext) => Rendered[] | Promise<Rendered[]>;
}
