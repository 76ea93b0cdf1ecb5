import { describe, expect, it } from 'vitest';
import { matchesSearch, parseSearch, searchTextOf, searchTokens } from '#shared/domain/transactions/search';

const maria = {
  name: 'Maria-Clara Conceição  Souza',
  email: 'Maria.Souza@Example.com',
  document: '52998224725',
};

const finds = (term: string) => {
  const search = parseSearch(term);
  return search !== null && matchesSearch(searchTextOf(maria), search);
};

describe('transaction search terms', () => {
  it('indexes each distinct word of the name, the e-mail and the document, folded', () => {
    expect(searchTokens(maria)).toEqual([
      'maria',
      'clara',
      'conceicao',
      'souza',
      'maria.souza@example.com',
      '52998224725',
    ]);
  });

  it('finds the start of any word, words in order, the start of the e-mail or of the document', () => {
    for (const term of [
      'mar',
      'CLARA',
      'conceição',
      'Conceicao Sou',
      'clara-conc',
      'maria.s',
      '529.982',
      ' souza ',
    ])
      expect(finds(term), term).toBe(true);
    for (const term of ['aria', 'souza maria', 'example.com', '982247', 'zz'])
      expect(finds(term), term).toBe(false);
  });

  it('finds an alphanumeric CNPJ however its letters are typed', () => {
    const company = { name: 'Loja', email: 'loja@example.com', document: '12ABC34501DE35' };
    const search = parseSearch('12.abc.345');
    expect(search !== null && matchesSearch(searchTextOf(company), search)).toBe(true);
    expect(searchTokens(company)).toContain('12abc34501de35');
  });

  it('reads one range when the other starts lie inside it, several otherwise, none for blanks', () => {
    expect(parseSearch('maria.sou')?.ranges).toEqual(['maria']);
    expect(parseSearch('529.982')?.ranges).toEqual(['529']);
    expect(parseSearch('joão silva')?.ranges).toEqual(['joao']);
    expect(parseSearch('_x@y')?.ranges).toEqual(['x', '_x@y']);
    expect(parseSearch('   ')).toBeNull();
  });
});
