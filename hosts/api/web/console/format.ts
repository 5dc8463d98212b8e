// How the console writes times, senders and confidences.

export const when = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export const sender = (from: { address: string; name: string }): string => (from.name ? `${from.name} <${from.address}>` : from.address);

/** A calibrated confidence as a percentage ("93 %"). */
export const percent = (confidence: number): string => `${Math.round(confidence * 100)} %`;
