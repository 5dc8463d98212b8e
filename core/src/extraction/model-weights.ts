import type { Model } from './model.js';

/**
 * The committed model (see model.ts), fitted on all 2447 messages of the corpus by
 * benchmarks/extraction/train.ts. Generated: refit rather than edit by hand.
 */
export const MODEL: Model = {
  scale: 1.8,
  bias: 0.74,
  weights: {
    'magic_link.anchor_action': 1.914,
    'magic_link.anchor_words': 2.017,
    'magic_link.base': 1.484,
    'magic_link.button': 2.378,
    'magic_link.carries_shown_code': 1.837,
    'magic_link.context_words': 1.608,
    'magic_link.footer': 1.8,
    'magic_link.footer_link': 1.823,
    'magic_link.image_only': 1.8,
    'magic_link.no_purpose': 2.506,
    'magic_link.no_token': 2.038,
    'magic_link.repeated': 2.267,
    'magic_link.site': 1.838,
    'magic_link.social': 1.8,
    'magic_link.subject_silent': 1.682,
    'magic_link.token': 1.773,
    'magic_link.url_words': 2.635,
    'otp.alone_on_line': 2.016,
    'otp.base': 1.01,
    'otp.decoy_word': 1.839,
    'otp.footer': 1.801,
    'otp.hash_prefix': 1.803,
    'otp.keyword_after': 1.788,
    'otp.keyword_before': 1.234,
    'otp.keyword_line_above': 1.959,
    'otp.labelled': 3.185,
    'otp.link_carries_code': 1.849,
    'otp.parenthetical': 1.83,
    'otp.several_parts': 2.048,
    'otp.shape': 1.955,
    'otp.subject_says_code': 1.759,
    'otp.subject_silent': 1.44,
  },
};
