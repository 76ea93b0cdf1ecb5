/**
 * One sentence per event of the catalog (events/catalog.ts), in Portuguese, grouped as the picker
 * shows them. test/unit/dashboard-events.test.ts fails when the catalog has an event this table
 * lacks or the other way round. `transaction.failed` is deprecated: offered to no new endpoint.
 */
export const EVENT_GROUPS: readonly { title: string; events: Readonly<Record<string, string>> }[] = [
  {
    title: 'Vendas',
    events: {
      'transaction.created': 'Uma venda foi criada.',
      'transaction.updated': 'Uma venda mudou de situação.',
      'transaction.payment.succeeded': 'Um pagamento foi confirmado.',
      'transaction.payment.failed': 'Um pagamento foi recusado ou falhou.',
      'transaction.canceled': 'Uma venda foi cancelada (por você, pelo contrato ou pela operação).',
      'transaction.chargeback': 'O comprador contestou a compra (chargeback aberto).',
      'transaction.chargeback_reversed': 'A contestação foi revertida: a venda voltou a ser paga.',
      'transaction.refunded': 'Uma venda foi reembolsada, no todo ou em parte.',
    },
  },
  {
    title: 'Produtos',
    events: {
      'product.created': 'Um produto foi criado.',
      'product.updated': 'Um produto foi alterado.',
      'product.deleted': 'Um produto foi desativado.',
    },
  },
  {
    title: 'Checkout',
    events: {
      'checkout.session.completed': 'Uma sessão de checkout foi paga.',
      'checkout.session.expired': 'Uma sessão de checkout expirou sem pagamento.',
    },
  },
  {
    title: 'Assinaturas',
    events: {
      'subscription.created': 'Uma assinatura foi criada.',
      'subscription.activated': 'Uma assinatura ficou ativa.',
      'subscription.paused': 'Uma assinatura foi pausada.',
      'subscription.cancelled': 'Uma assinatura foi cancelada.',
      'subscription.renewed': 'Uma assinatura foi renovada.',
      'customer.trial_started': 'Um período de teste começou.',
      'customer.trial_converted': 'Um período de teste virou assinatura paga.',
      'customer.trial_lapsed': 'Um período de teste terminou sem pagamento.',
    },
  },
  {
    title: 'Cobranças agendadas',
    events: {
      'scheduled_charge.created': 'Uma cobrança agendada foi criada.',
      'scheduled_charge.updated': 'Uma cobrança agendada foi alterada.',
      'scheduled_charge.canceled': 'Uma cobrança avulsa agendada foi cancelada.',
      'scheduled_charge.paid': 'Uma cobrança ou um ciclo foi pago.',
      'scheduled_charge.overdue': 'Uma cobrança venceu sem pagamento.',
      'scheduled_charge.cycle_failed': 'As novas tentativas no cartão de um ciclo se esgotaram.',
      'scheduled_charge.recurrence_canceled': 'Uma recorrência foi cancelada.',
      'scheduled_charge.cancel_at_period_end_set': 'O cancelamento ao fim do período foi marcado.',
      'scheduled_charge.cancel_at_period_end_cleared': 'O cancelamento ao fim do período foi desfeito.',
      'scheduled_charge.payment_method_attached': 'Um cartão foi salvo no primeiro ciclo.',
      'scheduled_charge.payment_method_changed': 'A forma de pagamento salva mudou.',
      'scheduled_charge.payment_method_cleared': 'A forma de pagamento salva foi removida.',
      'scheduled_charge.postponed': 'O vencimento foi adiado.',
    },
  },
  {
    title: 'Carnês',
    events: {
      'installment_plan.created': 'Um carnê foi criado (parcela 1 registrada).',
      'installment_plan.activated': 'A parcela 1 foi paga: o carnê está ativo.',
      'installment_plan.installment_issued':
        'O boleto de uma parcela foi registrado (ou reemitido como 2ª via).',
      'installment_plan.installment_paid': 'Uma parcela foi paga.',
      'installment_plan.installment_overdue': 'Uma parcela venceu sem pagamento.',
      'installment_plan.completed': 'Todas as parcelas foram pagas.',
      'installment_plan.canceled': 'O carnê foi cancelado.',
    },
  },
  {
    title: 'Cartões salvos',
    events: {
      'payment_method.expiring_soon': 'Um cartão salvo vence em breve.',
      'payment_method.expired': 'Um cartão salvo venceu.',
    },
  },
];

/** Deprecated names: shown on an endpoint that still lists them, never offered. */
export const DEPRECATED_EVENTS: Readonly<Record<string, string>> = {
  'transaction.failed': 'Obsoleto: use transaction.payment.failed.',
};

export function eventSentence(name: string): string {
  if (name === '*') return 'Todos os eventos.';
  for (const group of EVENT_GROUPS) if (name in group.events) return group.events[name];
  return DEPRECATED_EVENTS[name] ?? '';
}
