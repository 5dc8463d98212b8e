import { createPostalMimeMailParser } from '@ephemail/mail-parse';
import { loadCorpus, type Sample } from './corpus.js';
import { trainingRow, type Prepared } from './lopo.js';

/** Samples parsed once (by the host's parser), with their training rows. */
export const prepareSamples = async (samples: readonly Sample[]): Promise<Prepared[]> => {
  const parser = createPostalMimeMailParser();
  const out: Prepared[] = [];
  for (const sample of samples) {
    const parsed = await parser.parse(sample.raw);
    const message = parsed.ok ? parsed.message : undefined;
    out.push({ sample, message, row: trainingRow(sample, message) });
  }
  return out;
};

/** Every corpus message parsed once (by the host's parser), with its training row. */
export const prepareCorpus = async (): Promise<Prepared[]> => prepareSamples(loadCorpus());
