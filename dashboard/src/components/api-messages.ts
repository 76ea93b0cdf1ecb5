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
  dueDate: 'Vencimento',
  firstDueDate: '1º vencimento',
  'lateCharges.fine.value': 'Multa',
  'lateCharges.fine.type': 'Multa',
  'lateCharges.fine': 'Multa',
  'lateCharges.interest.percentPerMonth': 'Juros ao mês',
  'lateCharges.interest': 'Juros',
  'fine.value': 'Multa',
  'fine.type': 'Tipo de multa',
  fine: 'Multa',
  'interest.percentPerMonth': 'Juros ao mês',
  interest: 'Juros',
  discounts: 'Descontos',
  offsetDays: 'Dias',
  channels: 'Canais',
  subject: 'Assunto',
  body: 'Mensagem',
  whatsappTemplate: 'Modelo do WhatsApp',
  steps: 'Etapas',
  phoneNumberId: 'Id do número do WhatsApp',
  accessToken: 'Token de acesso',
  language: 'Idioma dos modelos',
  originationIdentity: 'Remetente do SMS',
};

const BY_CODE: Record<string, string> = {
  transaction_paid: 'Transações pagas não podem ser canceladas; faça um reembolso.',
  transaction_not_paid: 'Só transações pagas podem ser reembolsadas.',
  transaction_not_pending: 'Só transações pendentes podem ser canceladas.',
  other_provider: 'Esta transação foi processada por outro provedor de pagamento; cancele-a lá.',
  concurrent_update: 'A transação mudou enquanto você agia. Recarregue a página e tente de novo.',
  second_factor_required:
    'Ative o aplicativo autenticador do seu login (Conta → Aplicativo autenticador) antes de criar uma chave de produção ou conectar o Asaas. Vale o seu login, não o do dono da conta.',
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
  [/^ must be at most 2% of the amount \(CDC art\. 52\)$/, () => 'no máximo 2% do valor (CDC, art. 52 §1).'],
  [/^ must be at most 1 \(1% a month\)$/, () => 'no máximo 1% ao mês.'],
  [/^ must have at most 2 decimal places$/, () => 'use até 2 casas decimais.'],
  [/^ must be on or before the due date$/, () => 'a data deve ser até o vencimento.'],
  [/^ repeats another tier's date$/, () => 'repete a data de outra faixa.'],
  [/^ must leave something to pay$/, () => 'deve deixar algo a pagar.'],
  [/^ must be percentage$/, () => 'a multa padrão é um percentual.'],
  [/^ must be unique within the schedule$/, () => 'já existe outra etapa neste dia.'],
  [/^ must name at least one channel$/, () => 'escolha pelo menos um.'],
  [/^ must not be empty$/, () => 'não pode ficar vazio.'],
  [/^ is required when channels include whatsapp$/, () => 'obrigatório com WhatsApp.'],
  [
    /^ must include \{\{descadastro\}\} when channels include whatsapp.*$/,
    () => 'com WhatsApp, inclua {{descadastro}} (o link para o cliente sair).',
  ],
  [/^ has unknown placeholders: (.*)$/, (m) => `marcadores desconhecidos: ${m[1]}.`],
];

const reais = (decimal: string) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(Number(decimal));

export function portugueseMessage(message: string, code?: string): string {
  if (code && BY_CODE[code]) return BY_CODE[code];
  if (message === 'This seller already has a customer with this document')
    return 'CPF/CNPJ: você já tem um cliente com este documento.';
  if (message === 'Transação não encontrada' || message === 'Customer not found')
    return message === 'Customer not found' ? 'Cliente não encontrado.' : 'Transação não encontrada.';
  // A step of the reminder schedule names its position (`steps.2.body …`): "Etapa 3, Mensagem".
  const step = message.match(/^steps\.(\d+)\.(\w+)( .*)$/);
  if (step) {
    const label = `Etapa ${Number(step[1]) + 1}, ${FIELDS[step[2]] ?? step[2]}`;
    for (const [shape, say] of SHAPES) {
      const m = step[3].match(shape);
      if (m) return `${label}: ${say(m)}`;
    }
    return `${label}: ${step[3].trim()}`;
  }
  // A discount tier names its position (`discounts[1].until …`): "Desconto 2".
  const tier = message.match(/^(?:lateCharges\.)?discounts\[(\d+)\](?:\.\w+)?( .*)$/);
  if (tier) {
    const rest = tier[2];
    const label = `Desconto ${Number(tier[1]) + 1}`;
    for (const [shape, say] of SHAPES) {
      const m = rest.match(shape);
      if (m) return `${label}: ${say(m)}`;
    }
    return `${label}: ${rest.trim()}`;
  }
  const field = Object.keys(FIELDS).find((f) => message.startsWith(`${f} `));
  if (!field) return message;
  const rest = message.slice(field.length);
  for (const [shape, say] of SHAPES) {
    const m = rest.match(shape);
    if (m) return `${FIELDS[field]}: ${say(m)}`;
  }
  return `${FIELDS[field]}: ${rest.trim()}`;
}
