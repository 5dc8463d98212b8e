import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { loadCorpus } from './corpus.js';
import { trainingRow, type Prepared } from './lopo.js';

/** Every corpus message parsed once (by the host's parser), with its training row. */
export const prepareCorpus = async (): Promise<Prepared[]> => {
  const parser = createPostalMimeMailParser();
  const out: Prepared[] = [];
  for (const sample of loadCorpus()) {
    const parsed = await parser.parse(sample.raw);
    const message = parsed.ok ? parsed.message : undefined;
    out.push({ sample, message, row: trainingRow(sample, message) });
  }
  return out;
};
