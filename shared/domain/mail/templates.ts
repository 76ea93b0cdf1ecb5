import { escapeHtml, formatBrl, formatSaoPauloDateTime, headerText } from './format';

/**
 * Every e-mail the service writes, in Portuguese, in one place. A template takes plain values and
 * answers the subject, the text part and the HTML part; the HTML escapes every value it did not
 * write itself (product names, buyer names and card brands come from sellers and buyers).
 */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export type ReceiptMethod = 'pix' | 'boleto' | 'card' | 'pix_automatic';

export interface ReceiptData {
  transactionId: number;
  productName: string;
  /** Centavos. */
  amount: number;
  method: ReceiptMethod;
  card: { brand: string; last4: string } | null;
  installments: number | null;
  paidAt: Date;
  buyerName: string;
  /** A sandbox payment: the receipt says no real money moved. */
  sandbox: boolean;
  /** The seller's business profile (its name, https logo and colour), when it has one. */
  seller?: MailSeller | null;
}

/** Who an e-mail to a buyer comes from: the seller's business profile. */
export interface MailSeller {
  name: string;
  logoUrl: string | null;
  /** `#rrggbb`, or null. */
  brandColor?: string | null;
}

/**
 * The top of an e-mail to a buyer: the seller's logo (https only) and business name, over a band of
 * its colour when it chose one. Every value escaped; the colour only as six hex digits.
 */
export function sellerHeaderHtml(seller: MailSeller | null | undefined): string {
  const name = seller?.name.trim();
  if (!seller || !name) return '';
  const color = /^#[0-9a-fA-F]{6}$/.test(seller.brandColor ?? '') ? seller.brandColor : null;
  const logo = seller.logoUrl?.startsWith('https://')
    ? `<img src="${escapeHtml(seller.logoUrl)}" alt="" height="40" style="vertical-align:middle;margin-right:10px">`
    : '';
  const band = color ? `border-top:6px solid ${color};padding-top:12px;` : '';
  return `<p style="${band}margin:0 0 16px;font-size:18px;font-weight:bold">${logo}${escapeHtml(name)}</p>`;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  elo: 'Elo',
  hipercard: 'Hipercard',
};

/** `Pix`, `Boleto`, `Cartão de crédito Visa final 1111 (3 parcelas)`. */
export function methodLabel(data: Pick<ReceiptData, 'method' | 'card' | 'installments'>): string {
  if (data.method === 'pix') return 'Pix';
  if (data.method === 'pix_automatic') return 'Pix Automático';
  if (data.method === 'boleto') return 'Boleto';
  const n = data.installments ?? 1;
  return `${cardLabel(data.card)} ${n > 1 ? `(${n} parcelas)` : '(à vista)'}`;
}

/** `Cartão de crédito Visa final 1111` (the brand only when it is a known one). */
export function cardLabel(card: { brand: string; last4: string } | null): string {
  const parts = ['Cartão de crédito'];
  if (card) {
    const brand = BRANDS[card.brand.toLowerCase()];
    if (brand) parts.push(brand);
    parts.push(`final ${card.last4}`);
  }
  return parts.join(' ');
}

const SANDBOX_NOTE = 'Ambiente de testes: nenhuma cobrança real foi feita.';

/** The buyer's receipt for a confirmed payment. */
export function paymentReceipt(data: ReceiptData): RenderedMail {
  const rows: [string, string][] = [
    ...(data.seller?.name ? ([['Vendido por', data.seller.name]] as [string, string][]) : []),
    ['Produto', data.productName],
    ['Valor', formatBrl(data.amount)],
    ['Forma de pagamento', methodLabel(data)],
    ['Data do pagamento', formatSaoPauloDateTime(data.paidAt)],
    ['Pedido nº', String(data.transactionId)],
  ];
  const greeting = data.buyerName.trim() ? `Olá, ${data.buyerName.trim()}!` : 'Olá!';
  const intro = 'Recebemos o seu pagamento. Este é o seu recibo.';
  const outro = 'Guarde este e-mail como comprovante do pagamento.';
  const seller = data.seller?.name.trim();
  const subject = headerText(
    `${data.sandbox ? '[TESTE] ' : ''}${seller ? `Recibo de ${seller}` : 'Recibo do seu pagamento'}: ${data.productName}`,
  );

  const text = [
    ...(data.sandbox ? [SANDBOX_NOTE, ''] : []),
    greeting,
    '',
    intro,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    outro,
    '',
  ].join('\n');

  const cell = 'padding:6px 12px;border-bottom:1px solid #e5e5e5';
  const html = [
    '<!DOCTYPE html>',
    '<html lang="pt-BR"><head><meta charset="utf-8"><title>Recibo</title></head>',
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;margin:0;padding:24px">',
    data.sandbox
      ? `<p style="background:#fff4ce;padding:8px 12px;border-radius:4px">${escapeHtml(SANDBOX_NOTE)}</p>`
      : '',
    sellerHeaderHtml(data.seller),
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    '<table style="border-collapse:collapse" role="presentation">',
    ...rows.map(
      ([label, value]) =>
        `<tr><th style="${cell};text-align:left;font-weight:normal;color:#666">${escapeHtml(label)}</th>` +
        `<td style="${cell}">${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    `<p>${escapeHtml(outro)}</p>`,
    '</body></html>',
  ]
    .filter(Boolean)
    .join('\n');

  return { subject, text, html };
}

/** What the customer-portal e-mails say about the subscription and who sells it. */
export interface PortalMailSubject {
  customerName: string;
  productName: string;
  /** The subscription price's name (the plan). */
  planName: string;
  /** The seller's business name from the portal configuration; null: a neutral wording. */
  businessName: string | null;
  sandbox: boolean;
}

export interface CancellationData extends PortalMailSubject {
  /** True: the subscription runs until `endsAt`; false: it ended at `endsAt` (now). */
  atPeriodEnd: boolean;
  endsAt: Date;
  /** The seller's customCancellationMessage, shown as written (line breaks kept). */
  customMessage: string | null;
}

export interface PaymentMethodUpdatedData extends PortalMailSubject {
  card: { brand: string; last4: string };
}

const greetingOf = (name: string) => (name.trim() ? `Olá, ${name.trim()}!` : 'Olá!');
const sellerOf = (businessName: string | null) => businessName?.trim() || 'o vendedor';

/**
 * One portal e-mail: paragraphs of plain text (each may hold line breaks), the same in the text
 * part and, escaped, in the HTML part.
 */
function portalMail(subject: string, sandbox: boolean, paragraphs: string[]): RenderedMail {
  const shown = paragraphs.filter((p) => p.trim() !== '');
  const text = [...(sandbox ? [SANDBOX_NOTE, ''] : []), ...shown.flatMap((p) => [p, '']), ''].join('\n');
  const html = [
    '<!DOCTYPE html>',
    `<html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;margin:0;padding:24px">',
    sandbox
      ? `<p style="background:#fff4ce;padding:8px 12px;border-radius:4px">${escapeHtml(SANDBOX_NOTE)}</p>`
      : '',
    ...shown.map((p) => `<p>${escapeHtml(p).replace(/\r?\n/g, '<br>')}</p>`),
    '</body></html>',
  ]
    .filter(Boolean)
    .join('\n');
  return { subject: headerText(`${sandbox ? '[TESTE] ' : ''}${subject}`), text, html };
}

/** After a cancellation in the customer portal: when it ends, and the seller's own message. */
export function subscriptionCancellation(data: CancellationData): RenderedMail {
  const what = `sua assinatura de ${data.productName} (${data.planName})`;
  const when = formatSaoPauloDateTime(data.endsAt);
  return portalMail(
    data.atPeriodEnd
      ? `Cancelamento agendado: ${data.productName}`
      : `Assinatura cancelada: ${data.productName}`,
    data.sandbox,
    [
      greetingOf(data.customerName),
      data.atPeriodEnd
        ? `O cancelamento de ${what} foi agendado. Ela continua ativa até ${when} e não será renovada depois disso.`
        : `Confirmamos o cancelamento de ${what} em ${when}. Nenhuma nova cobrança será feita.`,
      data.customMessage ?? '',
      `Se você não pediu este cancelamento, fale com ${sellerOf(data.businessName)}.`,
    ],
  );
}

/** After the customer changed the card of a subscription in the portal. */
export function paymentMethodUpdated(data: PaymentMethodUpdatedData): RenderedMail {
  return portalMail(`Forma de pagamento atualizada: ${data.productName}`, data.sandbox, [
    greetingOf(data.customerName),
    `A forma de pagamento da sua assinatura de ${data.productName} (${data.planName}) foi atualizada para: ${cardLabel(data.card)}.`,
    'As próximas cobranças serão feitas nesse cartão.',
    `Se você não fez esta alteração, fale com ${sellerOf(data.businessName)}.`,
  ]);
}

/** The dashboard's account messages (the local identity store sends them; Cognito sends its own on AWS). */
export type AccountMailKind = 'sign-up-code' | 'password-reset-code' | 'already-registered';

export function accountMail(kind: AccountMailKind, code?: string): RenderedMail {
  const byKind: Record<AccountMailKind, { subject: string; paragraphs: string[] }> = {
    'sign-up-code': {
      subject: 'Confirme seu e-mail',
      paragraphs: [
        `Seu código de confirmação é ${code}.`,
        'Ele vale por 24 horas. Se você não criou uma conta, ignore esta mensagem.',
      ],
    },
    'password-reset-code': {
      subject: 'Redefinição de senha',
      paragraphs: [
        `Seu código para redefinir a senha é ${code}.`,
        'Ele vale por 1 hora. Se você não pediu a redefinição, ignore esta mensagem: sua senha continua a mesma.',
      ],
    },
    'already-registered': {
      subject: 'Você já tem uma conta',
      paragraphs: [
        'Alguém tentou criar uma conta com este e-mail, que já está cadastrado.',
        'Se foi você, entre com sua senha ou use "Esqueci minha senha". Se não foi, ignore esta mensagem.',
      ],
    },
  };
  const { subject, paragraphs } = byKind[kind];
  const text = paragraphs.join('\n\n');
  const html = [
    '<!doctype html><html lang="pt-BR"><body>',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    '</body></html>',
  ].join('\n');
  return { subject: headerText(subject), text, html };
}

/** What an invitation to a seller's team says: who invites, to what, and the link that accepts it. */
export interface TeamInvitationMail {
  businessName: string;
  roleLabel: string;
  acceptUrl: string;
  expiresAt: Date;
}

/** The invitation to join a seller's team in the dashboard (the link carries the token in its fragment). */
export function teamInvitationMail(data: TeamInvitationMail): RenderedMail {
  const subject = headerText(`Convite para a equipe de ${data.businessName}`);
  const paragraphs = [
    `Você foi convidado para a equipe de ${data.businessName} no painel, como ${data.roleLabel}.`,
    'Para aceitar, abra o link abaixo e entre com este e-mail (ou crie sua conta com ele):',
    data.acceptUrl,
    `O convite vale até ${formatSaoPauloDateTime(data.expiresAt)}. Se você não esperava este convite, ignore esta mensagem.`,
  ];
  const text = paragraphs.join('\n\n');
  const html = [
    '<!DOCTYPE html>',
    `<html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;margin:0;padding:24px">',
    `<p>${escapeHtml(paragraphs[0])}</p>`,
    `<p>${escapeHtml(paragraphs[1])}</p>`,
    `<p><a href="${escapeHtml(data.acceptUrl)}">Aceitar o convite</a></p>`,
    `<p>${escapeHtml(paragraphs[3])}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
