/**
 * The API answers in English, one sentence per invalid field, starting with the field
 * (`amount must be greater than 0`). The sales and customer views show them in Portuguese, the field
 * by its label: known sentences by their code or their shape, anything else as "Campo: original".
 */
const FIELDS: Record<string, string> = {
  amount: 'Valor',
  reason: 'Motivo',
  name: 'Nome',
  email: 'E-mail',
  phone: 'Telefone',
  document: 'CPF/CNPJ',
  personType: 'Tipo de pessoa',
  zipCode: 'CEP',
  street: 'Endereço',
  number: 'Número',
  complement: 'Complemento',
  neighborhood: 'Bairro',
  city: 'Cidade',
  state: 'UF',
  billingEmailOverride: 'E-mail de cobrança',
  search: 'Busca',
  from: 'De',
  to: 'Até',
  productId: 'Produto',
  customerId: 'Cliente',
  cursor: 'Página',
};

const BY_CODE: Record<string, string> = {
  transaction_paid: 'Transações pagas não podem ser canceladas; faça um reembolso.',
  transaction_not_paid: 'Só transações pagas podem ser reembolsadas.',
  transaction_not_pending: 'Só transações pendentes podem ser canceladas.',
  other_provider: 'Esta transação foi processada por outro provedor de pagamento; cancele-a lá.',
  concurrent_update: 'A transação mudou enquanto você agia. Recarregue a página e tente de novo.',
};

const SHAPES: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^ is required$/, () => 'é obrigatório.'],
  [/^ must be greater than 0$/, () => 'deve ser maior que zero.'],
  [
    /^ must be a positive amount with at most 2 decimal places$/,
    () => 'deve ser positivo, com até 2 casas decimais.',
  ],
  [
    /^ exceeds what can still be refunded \(([\d.]+)\)$/,
    (m) => `maior do que o que ainda pode ser reembolsado (${reais(m[1])}).`,
  ],
  [/^ must be a valid e-mail$/, () => 'deve ser um e-mail válido.'],
  [/^ must be at most (\d+) characters long$/, (m) => `deve ter no máximo ${m[1]} caracteres.`],
  [/^ must be at least (\d+) characters long$/, (m) => `deve ter pelo menos ${m[1]} caracteres.`],
  [/^ is not a valid CPF or CNPJ$/, () => 'não é um CPF ou CNPJ válido.'],
  [/^ must have 10 or 11 digits$/, () => 'deve ter 10 ou 11 dígitos, com o DDD.'],
  [/^ must have 8 digits$/, () => 'deve ter 8 dígitos.'],
  [/^ must be a Brazilian state \(UF\).*$/, () => 'deve ser uma UF do Brasil, como SP.'],
  [/^ must be a date YYYY-MM-DD$/, () => 'deve ser uma data válida.'],
  [/^ must not be after to$/, () => 'não pode ser depois da data final.'],
  [/^ is not valid$/, () => 'não é válida.'],
];

const reais = (decimal: string) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(Number(decimal));

export function portugueseMessage(message: string, code?: string): string {
  if (code && BY_CODE[code]) return BY_CODE[code];
  if (message === 'This seller already has a customer with this document')
    return 'CPF/CNPJ: você já tem um cliente com este documento.';
  if (message === 'Transação não encontrada' || message === 'Customer not found')
    return message === 'Customer not found' ? 'Cliente não encontrado.' : 'Transação não encontrada.';
  const field = Object.keys(FIELDS).find((f) => message.startsWith(`${f} `));
  if (!field) return message;
  const rest = message.slice(field.length);
  for (const [shape, say] of SHAPES) {
    const m = rest.match(shape);
    if (m) return `${FIELDS[field]}: ${say(m)}`;
  }
  return `${FIELDS[field]}: ${rest.trim()}`;
}
