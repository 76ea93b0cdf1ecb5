import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskEmail } from '#shared/domain/customer-area/request';

/**
 * The customer-area request answers the masked e-mail of a matched customer (the spec's shape):
 * it may show the first letter of the local part and the domain, nothing more (issue 31).
 */
describe('maskEmail', () => {
  it.each([
    ['paula@example.com', 'p***@example.com'],
    ['Paula.Reis@Example.COM', 'p***@example.com'],
    // A one-letter local part looks like any other: its length is not told.
    ['p@example.com', 'p***@example.com'],
    ['P@example.com', 'p***@example.com'],
    // Plus-addressing: the tag is part of what is hidden.
    ['paula+banco@example.com', 'p***@example.com'],
    // Only the last @ separates the domain: nothing of the local part shows after the mask.
    ['"paula@casa"@example.com', '"***@example.com'],
    ['p@secret@example.com', 'p***@example.com'],
    // A letter outside the BMP is one letter, not half of one.
    ['😀paula@example.com', '😀***@example.com'],
    ['  paula@example.com  ', 'p***@example.com'],
    // Not an address: no made-up domain.
    ['paula', 'p***'],
    ['', '***'],
  ])('masks %j as %j', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });

  it('tells apart two addresses only by their first letter and domain', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('p', 'M', '0', '_', 'ç'),
        fc.string(),
        fc.string(),
        fc.domain(),
        (first, restA, restB, domain) => {
          expect(maskEmail(`${first}${restA}@${domain}`)).toBe(maskEmail(`${first}${restB}@${domain}`));
          expect(maskEmail(`${first}${restA}@${domain}`)).toBe(
            `${first.toLowerCase()}***@${domain.toLowerCase()}`,
          );
        },
      ),
    );
  });
});
