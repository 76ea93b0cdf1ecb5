/**
 * Sandbox card behaviour: well-known test numbers with scripted outcomes, plus the checks a real
 * acquirer makes before asking the issuer (expiry, CVV length).
 */

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'elo' | 'unknown';

export type CardDeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'issuer_unavailable';

export type CardOutcome =
  | { outcome: 'approved' }
  | { outcome: 'declined'; failureCode: CardDeclineCode; failureReason: string }
  | { outcome: 'error'; failureCode: 'processing_error'; failureReason: string };

export interface CardAttempt {
  /** Digits only, already Luhn-checked by the caller (see `luhnValid`). */
  number: string;
  expiryMonth: number;
  /** Four digits; two digits are read as 20YY. */
  expiryYear: number;
  cvv: string;
  /** `YYYY-MM-DD`, the Sao Paulo calendar day of the attempt. */
  today: string;
}

const REASONS: Record<CardDeclineCode | 'processing_error', string> = {
  card_declined: 'The card was declined by the issuer.',
  insufficient_funds: 'The card has insufficient funds.',
  expired_card: 'The card has expired.',
  incorrect_cvc: 'The card security code is incorrect.',
  issuer_unavailable: 'The card issuer could not be reached; try again later.',
  processing_error: 'An error occurred while processing the card; the payment was not completed.',
};

/**
 * What a buyer is told of a card the issuer refused, whatever the reason: a card tester learns
 * nothing from it (is the number live, the CVV right, the money there). The exact reason stays on
 * the transaction, for the seller's API, the events and the dashboard.
 */
export const BUYER_DECLINE_PT = 'Cartão recusado. Tente outro cartão ou outra forma de pagamento.';
/** The same, as an anonymous caller of the API reads it (`failureReason`, in the API's language). */
export const BUYER_DECLINE_REASON = 'The card was declined.';

/**
 * A failure as a public page (or an anonymous API caller) may read it: a technical failure as it
 * is (nothing was charged, trying again is right), every issuer answer as a plain decline.
 */
export function buyerFailure(failureCode: string | null): { code: string; message: string } {
  if (failureCode === 'processing_error')
    return {
      code: failureCode,
      message: 'Ocorreu um erro ao processar o cartão. Nenhum valor foi cobrado; tente novamente.',
    };
  return { code: 'card_declined', message: BUYER_DECLINE_PT };
}

const decline = (failureCode: CardDeclineCode): CardOutcome => ({
  outcome: 'declined',
  failureCode,
  failureReason: REASONS[failureCode],
});

const APPROVED: CardOutcome = { outcome: 'approved' };

/**
 * Only these numbers are approved. Any other card, however valid, is declined `card_declined`:
 * approving arbitrary numbers would let a real card slip into the sandbox and look like it worked.
 */
export const SANDBOX_CARDS: Readonly<Record<string, CardOutcome>> = Object.freeze({
  '4111111111111111': APPROVED,
  '4242424242424242': APPROVED,
  '5555555555554444': APPROVED,
  // An approving Amex, so the 4-digit CVV rule has a card that gets past it.
  '378282246310005': APPROVED,
  '4000000000000002': decline('card_declined'),
  '4000000000009995': decline('insufficient_funds'),
  '4000000000000069': decline('expired_card'),
  '4000000000000127': decline('incorrect_cvc'),
  '4000000000000119': decline('issuer_unavailable'),
  // A technical failure, not an issuer's answer: callers may retry it, unlike a decline.
  '4000000000000259': {
    outcome: 'error',
    failureCode: 'processing_error',
    failureReason: REASONS.processing_error,
  },
});

/** Card numbers are 12–19 digits; anything else (spaces included) is not a number to check. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

// [brand, lowest prefix, highest prefix]; both bounds have the same length, so comparing the
// number's leading digits as strings is a numeric comparison. Elo comes first because several of
// its BINs sit inside Visa's 4 and Mastercard's 5 ranges.
const BRAND_PREFIXES: readonly [CardBrand, string, string][] = [
  ['elo', '401178', '401179'],
  ['elo', '431274', '431274'],
  ['elo', '438935', '438935'],
  ['elo', '451416', '451416'],
  ['elo', '457393', '457393'],
  ['elo', '457631', '457632'],
  ['elo', '504175', '504175'],
  ['elo', '506699', '506778'],
  ['elo', '509000', '509999'],
  ['elo', '627780', '627780'],
  ['elo', '636297', '636297'],
  ['elo', '636368', '636368'],
  ['elo', '650031', '650033'],
  ['elo', '650035', '650051'],
  ['elo', '650405', '650439'],
  ['elo', '650485', '650538'],
  ['elo', '650541', '650598'],
  ['elo', '650700', '650718'],
  ['elo', '650720', '650727'],
  ['elo', '650901', '650978'],
  ['elo', '651652', '651679'],
  ['elo', '655000', '655019'],
  ['elo', '655021', '655058'],
  ['amex', '34', '34'],
  ['amex', '37', '37'],
  ['mastercard', '51', '55'],
  ['mastercard', '2221', '2720'],
  ['visa', '4', '4'],
];

export function cardBrand(number: string): CardBrand {
  if (!/^\d+$/.test(number)) return 'unknown';
  const match = BRAND_PREFIXES.find(([, low, high]) => {
    const head = number.slice(0, low.length);
    return head.length === low.length && head >= low && head <= high;
  });
  return match ? match[0] : 'unknown';
}

/** The only part of a card number that may be stored or shown. */
export function last4(number: string): string {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 4) throw new Error('A card number has at least 4 digits');
  return digits.slice(-4);
}

/**
 * Expiry and CVV are checked before the scripted outcome, as an acquirer rejects them without
 * reaching the issuer. A card is valid through the last day of its expiry month.
 */
export function sandboxCardOutcome(attempt: CardAttempt): CardOutcome {
  const { number, expiryMonth, cvv, today } = attempt;
  const m = /^(\d{4})-(\d{2})-\d{2}$/.exec(today);
  if (!m) throw new Error(`Not a calendar date: ${today}`);
  if (!Number.isInteger(expiryMonth) || expiryMonth < 1 || expiryMonth > 12) {
    throw new Error('Card expiry month must be 1–12');
  }
  if (!Number.isInteger(attempt.expiryYear) || attempt.expiryYear < 0) {
    throw new Error('Card expiry year must be a non-negative integer');
  }
  const expiryYear = attempt.expiryYear < 100 ? 2000 + attempt.expiryYear : attempt.expiryYear;
  // Months since year 0 compare (year, month) pairs in one integer comparison.
  if (expiryYear * 12 + expiryMonth < Number(m[1]) * 12 + Number(m[2])) return decline('expired_card');
  const cvvLength = cardBrand(number) === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvvLength}}$`).test(cvv)) return decline('incorrect_cvc');
  return SANDBOX_CARDS[number] ?? decline('card_declined');
}
