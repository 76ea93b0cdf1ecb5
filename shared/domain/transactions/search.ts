import { searchableName } from '#shared/domain/customers/customer';
import { normalizeDocument } from '#shared/domain/documents';

/**
 * The transaction list's `search` (spec: "customer name or e-mail"): a term finds a transaction whose
 * buyer has a word of the name starting with it (several words: from the start of a word on, in
 * order), an e-mail starting with it, or a document starting with it; case and accents never count.
 * The buyer is the transaction's own copy (what the list shows in each row). The repository indexes
 * every transaction under its tokens (`searchTokens`) so a search reads only the index entries that
 * start like the term (docs/decisions.md, "Transactions and the sandbox provider").
 */

/** Index entries a search reads at most; a term that matches more is refused as too broad (400). */
export const SEARCH_READ_LIMIT = 20_000;
/** Words of a name indexed (the first ones): a longer name is still found by these. */
export const MAX_INDEXED_WORDS = 8;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();

/** A name's words as search compares them: lower case, no accents, split at anything not a letter or digit. */
export function nameWords(name: string): string[] {
  return searchableName(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** What a transaction is matched against: its buyer's words (each after a space), e-mail and document. */
export interface SearchText {
  words: string;
  email: string;
  document: string;
}

type Buyer = { name: string; email: string; document: string };

export function searchTextOf(customer: Buyer): SearchText {
  return {
    words: nameWords(customer.name)
      .map((w) => ` ${w}`)
      .join(''),
    email: fold(customer.email),
    // Lower case like every token: an alphanumeric CNPJ is found however its letters are typed.
    document: fold(normalizeDocument(customer.document)),
  };
}

/** The tokens a transaction is indexed under: its buyer's distinct name words, e-mail and document. */
export function searchTokens(customer: Buyer): string[] {
  const text = searchTextOf(customer);
  const words = [...new Set(nameWords(customer.name))].slice(0, MAX_INDEXED_WORDS);
  return [...new Set([...words, text.email, text.document])].filter((t) => t !== '');
}

export interface TransactionSearch {
  /** The term's words, one space apart: found from the start of a word of the name. */
  name: string;
  /** The term as the start of an e-mail; null when it cannot be one (it holds a space). */
  email: string | null;
  /** The term as the start of a document; null unless it has a digit and only a document's characters. */
  document: string | null;
  /** Token prefixes whose index ranges hold every possible match (none inside another). */
  ranges: string[];
}

/** The search a term asks for; null when nothing of it can be searched (only punctuation). */
export function parseSearch(term: string): TransactionSearch | null {
  const trimmed = term.trim();
  const words = nameWords(trimmed);
  const name = words.join(' ');
  const email = trimmed === '' || /\s/.test(trimmed) ? null : fold(trimmed);
  const document =
    /\d/.test(trimmed) && /^[\dA-Za-z.\-/\s]+$/.test(trimmed) ? fold(normalizeDocument(trimmed)) : null;
  const starts = [words[0], email, document].filter((s): s is string => typeof s === 'string' && s !== '');
  if (starts.length === 0) return null;
  const ranges = [...new Set(starts)]
    .sort((a, b) => a.length - b.length)
    .filter((s, i, all) => !all.slice(0, i).some((shorter) => s.startsWith(shorter)));
  return { name, email, document, ranges };
}

export function matchesSearch(text: SearchText, search: TransactionSearch): boolean {
  return (
    (search.name !== '' && text.words.includes(` ${search.name}`)) ||
    (search.email !== null && text.email.startsWith(search.email)) ||
    (search.document !== null && search.document !== '' && text.document.startsWith(search.document))
  );
}
