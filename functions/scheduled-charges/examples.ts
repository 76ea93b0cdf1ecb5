import type { ReminderValues } from '#shared/domain/reminders/render';
import type { ReminderStep } from '#shared/domain/reminders/schedule';
import { renderedStep } from '#shared/domain/reminders/settings';
import { refused } from '#shared/domain/scheduled-charges/actions';
import {
  boletoSale,
  chargeCustomer,
  lessons,
  lessonsDetail,
  pixSale,
  productUuid,
} from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { scheduledChargeRoutes } from './routes';

/** Calls of the scheduled charge routes for the API reference (read by the OpenAPI generator and the tests only). */

/** Maria's one-time tuition, by pix or boleto (issued 5 days before the due date). */
const tuition = {
  id: 'sch_test_0GxSxn7g9DlIzk17pjdsPhZ0',
  object: 'scheduled_charge',
  customerId: 1,
  amount: 120.5,
  dueDate: '2026-11-29',
  methods: ['pix', 'boleto'],
  status: 'scheduled',
  type: 'one_time',
  description: 'Mensalidade das aulas de violão',
  recurrence: null,
  trialDays: 0,
  trialEndsOn: null,
  paymentMethod: null,
  cancelAtPeriodEnd: false,
  pausedAt: null,
  canceledAt: null,
  customer: chargeCustomer,
  product: null,
  fine: { type: 'percentage', value: 2 },
  interest: { percentPerMonth: 1 },
  discounts: [{ until: '2026-11-26', type: 'percentage', value: 5 }],
  environment: 'test',
  createdAt: '2026-11-28T17:09:34.393Z',
  updatedAt: '2026-11-28T17:09:34.498Z',
} as const;
/**
 * The tuition marked paid after its due date: the pix and boleto issued 5 days ahead are cancelled
 * under the cycle, and `transactions` (its payments) stays empty.
 */
const tuitionItem = { id: 0, name: tuition.description, value: 120.5, uuid: '' } as const;
const issuedAs = {
  value: 120.5,
  customer: {
    id: 1,
    name: chargeCustomer.name,
    email: chargeCustomer.email,
    document: chargeCustomer.document,
    phone: '',
  },
  product: tuitionItem,
  status: 'cancel',
  amountDue: null,
  canceledAt: '2026-12-03T17:09:40.775Z',
  updatedAt: '2026-12-03T17:09:40.775Z',
} as const;
const tuitionMarkedPaid = {
  ...tuition,
  status: 'paid',
  updatedAt: '2026-12-03T17:09:40.775Z',
  cycles: [
    {
      cycleId: `${tuition.id}_c1`,
      cycleNumber: 1,
      dueDate: '2026-11-29',
      amount: 120.5,
      amountDue: null,
      fine: { type: 'percentage', value: 2 },
      interest: { percentPerMonth: 1 },
      discounts: [{ until: '2026-11-26', type: 'percentage', value: 5 }],
      status: 'paid',
      payUrl: `http://127.0.0.1:3000/cobranca/cob_2_${tuition.id}_Qb7TnW2kXo9LcVs3EyPa8RdHm4JuFg6Z`,
      paidAt: '2026-12-03T17:09:40.775Z',
      paidBy: 'manual',
      paymentDate: '2026-12-03',
      externalReference: 'TED 4471',
      attemptCount: 1,
      nextRetryAt: null,
      failureCode: null,
      failureReason: null,
      issued: [
        {
          ...pixSale,
          ...issuedAs,
          id: 31,
          uuid: '2f6c1c8e-5b7a-4f0e-9d1a-3c8b6e2a7f10',
          gatewayPayId: 310472895561204,
          valueSeller: 119.31,
          date: '2026-11-28T17:09:34.450Z',
          deadline: '2026-12-29T02:59:59.999Z',
          pix: { ...pixSale.pix, expiresAt: '2026-12-29T02:59:59.999Z' },
          createdAt: '2026-11-28T17:09:34.450Z',
        },
        {
          ...boletoSale,
          ...issuedAs,
          id: 32,
          uuid: '9a0e4d27-61c3-4b8f-a5e2-7d1f0c3b9e64',
          gatewayPayId: 744109358216630,
          valueSeller: 117.01,
          date: '2026-11-28T17:09:34.470Z',
          deadline: '2026-11-29',
          boleto: {
            ...boletoSale.boleto,
            dueDate: '2026-11-29',
            pixQrCode:
              '00020101021226680014br.gov.bcb.pix2546pix.sandbox.invalid/qr/v2/cobv/7441093582166305204000053039865406120.505802BR5916SANDBOX SELLER 26009SAO PAULO62070503***630457E1',
          },
          createdAt: '2026-11-28T17:09:34.470Z',
        },
      ],
    },
  ],
  transactions: [],
  timeline: [
    {
      id: 6,
      kind: 'manually_marked_paid',
      cycleNumber: 1,
      data: { paymentDate: '2026-12-03', externalReference: 'TED 4471' },
      createdAt: '2026-12-03T17:09:40.775Z',
    },
    {
      id: 5,
      kind: 'overdue',
      cycleNumber: 1,
      data: { dueDate: '2026-11-29' },
      createdAt: '2026-11-30T03:00:00.011Z',
    },
    {
      id: 4,
      kind: 'due_today',
      cycleNumber: 1,
      data: { dueDate: '2026-11-29' },
      createdAt: '2026-11-29T03:00:00.009Z',
    },
    {
      id: 3,
      kind: 'issued',
      cycleNumber: 1,
      data: { method: 'boleto', transactionId: 32 },
      createdAt: '2026-11-28T17:09:34.470Z',
    },
    {
      id: 2,
      kind: 'issued',
      cycleNumber: 1,
      data: { method: 'pix', transactionId: 31 },
      createdAt: '2026-11-28T17:09:34.450Z',
    },
    {
      id: 1,
      kind: 'created',
      cycleNumber: null,
      data: { amount: 120.5, dueDate: '2026-11-29' },
      createdAt: '2026-11-28T17:09:34.393Z',
    },
  ],
} as const;

const lessonsCreated = {
  ...lessons,
  amount: 49.9,
  dueDate: '2026-11-29',
  status: 'pending_tokenization',
  description: 'Aulas particulares',
  paymentMethod: null,
  updatedAt: '2026-11-28T17:09:34.608Z',
} as const;

/** The reminder schedule (reminder-routes.ts): the default, a seller's own, a customer's override. */
const defaultSchedule = {
  source: 'default',
  steps: [
    {
      offsetDays: -3,
      channels: ['email'],
      subject: 'Sua cobrança vence em {{vencimento}}: {{referente}}',
      body: 'Olá, {{cliente}}!\n\nLembrete: a cobrança de {{empresa}} vence em {{vencimento}}.\n\nReferente a: {{referente}}\nValor: {{valor}}\nVencimento: {{vencimento}}\nPagar agora: {{link}}\nLinha digitável do boleto: {{linha_digitavel}}\nPix copia e cola: {{pix_copia_e_cola}}\n\nSe você já pagou, desconsidere esta mensagem.',
      whatsappTemplate: null,
    },
    {
      offsetDays: 0,
      channels: ['email'],
      subject: 'Sua cobrança vence hoje: {{referente}}',
      body: 'Olá, {{cliente}}!\n\nA cobrança de {{empresa}} vence hoje, {{vencimento}}.\n\nReferente a: {{referente}}\nValor: {{valor}}\nVencimento: {{vencimento}}\nPagar agora: {{link}}\nLinha digitável do boleto: {{linha_digitavel}}\nPix copia e cola: {{pix_copia_e_cola}}\n\nSe você já pagou, desconsidere esta mensagem.',
      whatsappTemplate: null,
    },
    {
      offsetDays: 1,
      channels: ['email'],
      subject: 'Cobrança vencida: {{referente}}',
      body: 'Olá, {{cliente}}!\n\nA cobrança de {{empresa}} venceu em {{vencimento}} e ainda não identificamos o pagamento.\n\nReferente a: {{referente}}\nValor: {{valor}}\nVencimento: {{vencimento}}\nPagar agora: {{link}}\nLinha digitável do boleto: {{linha_digitavel}}\nPix copia e cola: {{pix_copia_e_cola}}\n\nSe você já pagou, desconsidere esta mensagem.',
      whatsappTemplate: null,
    },
    {
      offsetDays: 3,
      channels: ['email'],
      subject: 'Cobrança vencida há 3 dias: {{referente}}',
      body: 'Olá, {{cliente}}!\n\nA cobrança de {{empresa}} venceu em {{vencimento}} e continua em aberto.\n\nReferente a: {{referente}}\nValor: {{valor}}\nVencimento: {{vencimento}}\nPagar agora: {{link}}\nLinha digitável do boleto: {{linha_digitavel}}\nPix copia e cola: {{pix_copia_e_cola}}\n\nSe você já pagou, desconsidere esta mensagem.',
      whatsappTemplate: null,
    },
    {
      offsetDays: 7,
      channels: ['email'],
      subject: 'Cobrança vencida há 7 dias: {{referente}}',
      body: 'Olá, {{cliente}}!\n\nA cobrança de {{empresa}} venceu em {{vencimento}} e continua em aberto. Regularize assim que possível.\n\nReferente a: {{referente}}\nValor: {{valor}}\nVencimento: {{vencimento}}\nPagar agora: {{link}}\nLinha digitável do boleto: {{linha_digitavel}}\nPix copia e cola: {{pix_copia_e_cola}}\n\nSe você já pagou, desconsidere esta mensagem.',
      whatsappTemplate: null,
    },
  ],
  limits: {
    minOffsetDays: -30,
    maxOffsetDays: 60,
    maxSteps: 10,
    subjectLength: 150,
    bodyLength: 1000,
    whatsappTemplateLength: 512,
  },
} as const;
const customSchedule = {
  source: 'seller',
  steps: [
    {
      offsetDays: -3,
      channels: ['email'],
      subject: 'Sua cobrança de {{valor}} vence em {{vencimento}}',
      body: 'Olá, {{cliente}}! A cobrança de {{referente}} ({{valor}}) vence em {{vencimento}}. Pague em {{link}}.',
      whatsappTemplate: null,
    },
    {
      offsetDays: 0,
      channels: ['email', 'whatsapp', 'sms'],
      subject: 'Sua cobrança vence hoje',
      body: 'Olá, {{cliente}}! {{referente}}: {{valor}} vence hoje. Pague em {{link}}. Para não receber mais: {{descadastro}}',
      whatsappTemplate: 'cobranca_vence_hoje',
    },
  ],
  limits: {
    minOffsetDays: -30,
    maxOffsetDays: 60,
    maxSteps: 10,
    subjectLength: 150,
    bodyLength: 1000,
    whatsappTemplateLength: 512,
  },
} as const;
const customerSchedule = {
  source: 'customer',
  steps: [
    {
      whatsappTemplate: 'cobranca_vence_hoje',
      channels: ['email', 'whatsapp', 'sms'],
      body: 'Olá, {{cliente}}! {{referente}}: {{valor}} vence hoje. Pague em {{link}}. Para não receber mais: {{descadastro}}',
      subject: 'Sua cobrança vence hoje',
      offsetDays: 0,
    },
  ],
  limits: {
    minOffsetDays: -30,
    maxOffsetDays: 60,
    maxSteps: 10,
    subjectLength: 150,
    bodyLength: 1000,
    whatsappTemplateLength: 512,
  },
  optedOut: [],
} as const;
const reminderChannels = {
  email: {
    enabled: true,
  },
  whatsapp: {
    enabled: true,
    phoneNumberId: '109876543210',
    accessTokenLast4: 'x1Y2',
    language: 'pt_BR',
  },
  sms: {
    enabled: true,
    originationIdentity: '+5511900001111',
  },
} as const;
const optOutToken = 'optout_4Jq8Zr2Lw9Xc3Vb7Nm1Kp5Hs6Td0Fg2Y';

/** A carnê installment's reminder (the installment-plans examples' plan), rendered as the route renders it. */
const booklet = {
  planUuid: '6199371f-023a-4402-ad16-a95ed8476b03',
  step: {
    offsetDays: -3,
    channels: ['email', 'whatsapp', 'sms'],
    subject: 'Sua parcela vence em {{vencimento}}',
    body: 'Olá, {{cliente}}! {{referente}}: {{valor}} vence em {{vencimento}}. Boleto: {{linha_digitavel}}. Sair: {{descadastro}}',
    whatsappTemplate: 'parcela_lembrete',
  } satisfies ReminderStep,
  values: {
    businessName: 'Escola Harmonia',
    businessLogoUrl: 'https://cdn.example.com/harmonia.png',
    businessColor: '#1d4ed8',
    customerName: 'Maria Souza',
    itemName: 'Violão Acústico Tagima (parcela 1/3)',
    amountDue: 34497,
    dueDate: '2027-01-09',
    payUrl:
      'http://127.0.0.1:3000/api/sandbox/boletos/736651195967463/pdf?token=ffc5fdbe35f039a1b990d0b0ed7b0102',
    boletoLine: '00090.00001 07366.511959 96746.300001 2 16860000034497',
    pixCopyPaste: null,
    optOutUrl: 'http://127.0.0.1:3000/descadastro/exemplo',
    sandbox: true,
  } satisfies ReminderValues,
};

export const examples = defineExamples(scheduledChargeRoutes, {
  createScheduledCharge: [
    {
      name: 'one-time',
      summary: 'One tuition payment by pix or boleto, due tomorrow',
      body: {
        customerId: 1,
        amount: 120.5,
        dueDate: '2026-11-29',
        methods: ['pix', 'boleto'],
        type: 'one_time',
        description: 'Mensalidade das aulas de violão',
      },
      responses: { 201: tuition },
    },
    {
      name: 'recurring-card',
      summary: 'Monthly lessons by card, 6 cycles: cycle 1 on its pay link saves the card',
      body: {
        customerId: 1,
        amount: 49.9,
        dueDate: '2026-11-29',
        methods: ['card'],
        type: 'recurring',
        recurrence: { interval: 'month', endAfterCycles: 6 },
        productId: productUuid,
        description: 'Aulas particulares',
      },
      responses: { 201: lessonsCreated },
    },
  ],
  listScheduledCharges: {
    query: { status: 'scheduled', page: 1, limit: 20 },
    responses: { 200: { data: [tuition], count: 1, totalCount: 1, totalPages: 1 } },
  },
  getScheduledCharge: { path: { id: lessons.id }, responses: { 200: { ...lessons, ...lessonsDetail } } },
  markScheduledChargePaid: [
    {
      name: 'overdue',
      summary: 'Paid by bank transfer: paid, no transaction created, its pix and boleto cancelled',
      path: { id: tuition.id },
      body: { paymentDate: '2026-12-03', externalReference: 'TED 4471' },
      responses: { 200: tuitionMarkedPaid },
    },
    {
      name: 'not-due',
      summary: 'Still scheduled (only due_today or overdue charges can be marked paid): 409',
      path: { id: tuition.id },
      body: { paymentDate: '2026-11-28', externalReference: 'TED 4471' },
      errors: { 409: refused('marked paid', 'scheduled') },
    },
  ],
  postponeScheduledCharge: {
    path: { id: tuition.id },
    body: { newDueDate: '2026-12-02', reason: 'Cliente pediu mais prazo' },
    responses: { 200: { ...tuition, dueDate: '2026-12-02', updatedAt: '2026-11-29T17:09:38.655Z' } },
  },
  postponeScheduledChargeUnversioned: {
    path: { id: tuition.id },
    body: { newDueDate: '2026-12-03' },
    responses: { 200: { ...tuition, dueDate: '2026-12-03', updatedAt: '2026-11-29T17:09:38.703Z' } },
  },
  cancelScheduledCharge: {
    path: { id: 'sch_test_wuUAjOUOYyiQqGeMXLzgELAJ' },
    body: { reason: 'Matrícula cancelada' },
    responses: {
      200: {
        ...tuition,
        id: 'sch_test_wuUAjOUOYyiQqGeMXLzgELAJ',
        customerId: 2,
        amount: 80,
        dueDate: '2027-01-09',
        methods: ['pix'],
        status: 'canceled',
        description: 'Taxa de matrícula',
        canceledAt: '2026-12-30T17:09:44.184Z',
        customer: {
          id: 2,
          uuid: '013a3283-c544-4269-84fd-b6013205486e',
          name: 'João Pereira',
          email: 'joao@example.com',
          document: '71460238508',
        },
        createdAt: '2026-12-30T17:09:44.131Z',
        updatedAt: '2026-12-30T17:09:44.184Z',
      },
    },
  },
  setScheduledChargeCancelAtPeriodEnd: {
    path: { id: lessons.id },
    responses: { 200: { ...lessons, cancelAtPeriodEnd: true, updatedAt: '2026-12-30T17:09:43.973Z' } },
  },
  clearScheduledChargeCancelAtPeriodEnd: {
    path: { id: lessons.id },
    responses: { 200: { ...lessons, updatedAt: '2026-12-30T17:09:44.006Z' } },
  },
  pauseScheduledCharge: {
    path: { id: lessons.id },
    responses: {
      200: {
        ...lessons,
        status: 'paused',
        pausedAt: '2026-12-30T17:09:44.087Z',
        updatedAt: '2026-12-30T17:09:44.087Z',
      },
    },
  },
  resumeScheduledCharge: {
    path: { id: lessons.id },
    responses: { 200: { ...lessons, updatedAt: '2026-12-30T17:09:44.106Z' } },
  },
  updateScheduledCharge: {
    path: { id: lessons.id },
    body: { amount: 54.9, description: 'Aulas particulares (2027)' },
    responses: {
      200: {
        ...lessonsCreated,
        amount: 54.9,
        description: 'Aulas particulares (2027)',
        updatedAt: '2026-11-28T17:09:34.847Z',
      },
    },
  },
  getReminderSchedule: { responses: { 200: defaultSchedule } },
  putReminderSchedule: { body: { steps: customSchedule.steps }, responses: { 200: customSchedule } },
  previewReminder: {
    body: { step: 0, scheduledChargeId: tuition.id },
    responses: {
      200: {
        step: {
          whatsappTemplate: 'cobranca_vence_hoje',
          channels: ['email', 'whatsapp', 'sms'],
          body: 'Olá, {{cliente}}! {{referente}}: {{valor}} vence hoje. Pague em {{link}}. Para não receber mais: {{descadastro}}',
          subject: 'Sua cobrança vence hoje',
          offsetDays: 0,
        },
        cycleNumber: 1,
        sendDate: '2026-12-05',
        amountDue: 120.5,
        email: {
          to: 'maria@example.com',
          subject: '[TESTE] Sua cobrança vence hoje',
          text: 'Ambiente de testes: nenhuma cobrança real foi feita.\n\nEscola Harmonia\n\nOlá, Maria Souza! Mensalidade: R$ 120,50 vence hoje. Pague em http://127.0.0.1:41013/cobranca/cob_2_sch_test_CfFv02jue4G7ubaCK6uv70eK_22qlIG8IzE9PEbslEvBDVFPgDjy6wC2A. Para não receber mais: http://127.0.0.1:41013/descadastro/exemplo\n',
          html: '<!DOCTYPE html>\n<html lang="pt-BR"><head><meta charset="utf-8"><title>[TESTE] Sua cobrança vence hoje</title></head>\n<body style="font-family:Arial,Helvetica,sans-serif;color:#222;margin:0;padding:24px">\n<p style="background:#fff4ce;padding:8px 12px;border-radius:4px">Ambiente de testes: nenhuma cobrança real foi feita.</p>\n<p style="margin:0 0 16px;font-size:18px;font-weight:bold">Escola Harmonia</p>\n<p>Olá, <span style="word-break:break-all">Maria Souza</span>! <span style="word-break:break-all">Mensalidade</span>: <span style="word-break:break-all">R$ 120,50</span> vence hoje. Pague em <a href="http://127.0.0.1:41013/cobranca/cob_2_sch_test_CfFv02jue4G7ubaCK6uv70eK_22qlIG8IzE9PEbslEvBDVFPgDjy6wC2A">http://127.0.0.1:41013/cobranca/cob_2_sch_test_CfFv02jue4G7ubaCK6uv70eK_22qlIG8IzE9PEbslEvBDVFPgDjy6wC2A</a>. Para não receber mais: <a href="http://127.0.0.1:41013/descadastro/exemplo">http://127.0.0.1:41013/descadastro/exemplo</a></p>\n</body></html>',
        },
        whatsapp: {
          to: '+5511987654321',
          template: 'cobranca_vence_hoje',
          parameters: [
            {
              name: 'cliente',
              value: 'Maria Souza',
            },
            {
              name: 'referente',
              value: 'Mensalidade',
            },
            {
              name: 'valor',
              value: 'R$ 120,50',
            },
            {
              name: 'link',
              value:
                'http://127.0.0.1:41013/cobranca/cob_2_sch_test_CfFv02jue4G7ubaCK6uv70eK_22qlIG8IzE9PEbslEvBDVFPgDjy6wC2A',
            },
            {
              name: 'descadastro',
              value: 'http://127.0.0.1:41013/descadastro/exemplo',
            },
          ],
          text: 'Olá, Maria Souza! Mensalidade: R$ 120,50 vence hoje. Pague em http://127.0.0.1:41013/cobranca/cob_2_sch_test_CfFv02jue4G7ubaCK6uv70eK_22qlIG8IzE9PEbslEvBDVFPgDjy6wC2A. Para não receber mais: http://127.0.0.1:41013/descadastro/exemplo',
        },
        sms: {
          to: '+5511987654321',
          text: 'Escola Harmonia: Olá, Maria Souza! Mensalidade: R$ 120,50 vence hoje. Pague em http://127.0.0.1:41013/cobranca/cob_2_sch_test_CfFv02jue4G7ubaCK6uv70eK_22qlIG8IzE9PEbslEvBDVFPgDjy6wC2A. Para não receber mais: http://127.0.0.1:41013/descadastro/exemplo',
        },
      },
    },
  },
  previewInstallmentReminder: {
    body: { step: -3, installmentPlanId: booklet.planUuid },
    responses: {
      200: {
        step: booklet.step,
        installment: 1,
        sendDate: '2027-01-06',
        amountDue: 344.97,
        ...renderedStep(booklet.step, booklet.values, { email: 'maria@example.com', phone: '11987654321' }),
      },
    },
  },
  getCustomerReminderSchedule: { path: { uuid: chargeCustomer.uuid }, responses: { 200: customerSchedule } },
  putCustomerReminderSchedule: {
    path: { uuid: chargeCustomer.uuid },
    body: { steps: customerSchedule.steps },
    responses: { 200: customerSchedule },
  },
  deleteCustomerReminderSchedule: {
    path: { uuid: chargeCustomer.uuid },
    // Back on the seller's schedule; the opt-outs stay.
    responses: { 200: { ...customSchedule, optedOut: [] } },
  },
  getReminderChannels: { responses: { 200: reminderChannels } },
  putWhatsappChannel: {
    body: { enabled: true, phoneNumberId: '109876543210', accessToken: 'EAAGx1Y2x1Y2x1Y2x1Y2x1Y2' },
    responses: {
      200: {
        email: {
          enabled: true,
        },
        whatsapp: {
          enabled: true,
          phoneNumberId: '109876543210',
          accessTokenLast4: 'x1Y2',
          language: 'pt_BR',
        },
        sms: {
          enabled: false,
        },
      },
    },
  },
  putSmsChannel: {
    body: { enabled: true, originationIdentity: '+5511900001111' },
    responses: { 200: reminderChannels },
  },
  deleteReminderChannel: {
    path: { channel: 'sms' },
    responses: {
      200: {
        email: {
          enabled: true,
        },
        whatsapp: {
          enabled: true,
          phoneNumberId: '109876543210',
          accessTokenLast4: 'x1Y2',
          language: 'pt_BR',
        },
        sms: {
          enabled: false,
        },
      },
    },
  },
  getReminderOptOutPage: { path: { token: optOutToken } },
  postReminderOptOut: { path: { token: optOutToken } },
});
