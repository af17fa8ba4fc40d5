/**
 * error_code values for swipes that cannot be used, merged into the engine's ERROR_CODES. Each kind of
 * failure has its own code, because each asks for a different action: swipe again, use another
 * reader, re-key the reader, or ask for another card.
 */

export const SWIPE_ERROR_CODES = {
  SWIPE_MALFORMED: '8020',
  SWIPE_TAMPERED: '8021',
  SWIPE_TRUNCATED: '8022',
  SWIPE_NOT_ENCRYPTED: '8023',
  SWIPE_KEYS_EXHAUSTED: '8024',
  SWIPE_UNDECRYPTABLE: '8025',
  SWIPE_INVALID_KSN: '8026',
  SWIPE_BAD_READ: '8027',
  SWIPE_NOT_PAYMENT_CARD: '8028',
  SWIPE_REPLAYED: '8029',
  // 8030 was given to the expired AUTH before this code was needed.
  SWIPE_MISREAD: '8031',
} as const;
export type SwipeErrorCode = (typeof SWIPE_ERROR_CODES)[keyof typeof SWIPE_ERROR_CODES];

/** What each code means: the published error catalogue, word for word (docs/api.md). */
export const SWIPE_ERROR_CODE_MEANINGS: Record<SwipeErrorCode, string> = {
  '8020': '`encrypted_track_data` is not a MagTek encrypted swipe string.',
  '8021': 'The swipe was altered: its CRC does not match, or its masked and encrypted card disagree.',
  '8022': 'The swipe string is cut short.',
  '8023': 'The reader does not encrypt (zero KSN, encryption off, clear tracks): refused for payments.',
  '8024': "The reader's DUKPT keys are exhausted: it must be re-keyed.",
  '8025':
    "No track decrypts with this terminal's BDK: the reader was keyed from another BDK, or every track it sent is damaged.",
  '8026': 'The KSN counter is invalid (more than ten 1-bits).',
  '8027': 'Bad read: neither track 1 nor track 2 was read.',
  '8028': 'Not a payment card: its tracks read well but hold no card number and expiry.',
  '8029': 'Replayed swipe: a transaction already used this KSN.',
  '8031':
    'Bad read: a track is not well-formed track data while another decrypts, or tracks 1 and 2 disagree on card number or expiry.',
};

/** What the cashier reads (display_message): what happened and what to do next, never card data. */
export const SWIPE_DISPLAY_MESSAGES: Record<SwipeErrorCode, string> = {
  '8020': 'The swipe was not understood. Swipe again; if this repeats, check the card reader setup.',
  '8021': 'The swipe data was changed on its way. Swipe the card again.',
  '8022': 'The swipe data was cut short. Swipe again, steadily.',
  '8023':
    'This card reader does not encrypt card data, so the swipe cannot be used. Key the card in instead.',
  '8024': 'The card reader has run out of encryption keys and must be re-keyed. Key the card in meanwhile.',
  '8025':
    "The card data could not be decrypted. Swipe again; if it keeps failing, the reader's key does not match this terminal.",
  '8026': 'The swipe came with an invalid reader key number. Swipe again.',
  '8027': 'The card was not read. Swipe again, steadily.',
  '8028': 'This is not a payment card. Ask for another card.',
  '8029': 'This swipe was already used. Swipe the card again.',
  '8031': 'The card was not read cleanly. Swipe again; if it keeps failing, key the card in.',
};
