import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link } from '../../app/router';
import { RoleNote, useCan } from '../../app/sellers';
import { ErrorNote, Loading, PageTitle } from '../../components/ui';
import {
  checkDraft,
  defaultsBody,
  draftOfDefaults,
  LATE_CHARGE_FIELDS,
  type LateChargeDraft,
  LateChargeInputs,
  lateExample,
} from './late-charges';

type Effective = Schemas['EffectivePortalConfiguration'];

/**
 * The seller's late-charge defaults (the portal configuration's `lateCharges`): the fine and
 * interest every new charge takes unless its product or the charge sets its own. One request.
 */
export function LateChargeSettingsView() {
  const { api } = useApp();
  const client = useQueryClient();
  const key = useKey('portal-configuration');
  const config = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/portal/configuration/effective')),
  });
  const canWrite = useCan('write');
  const save = useMutation({
    // The configuration is replaced whole (PUT): the portal's fields go back as they are.
    mutationFn: ({ source: _source, ...rest }: Effective) =>
      must(api.PUT('/api/portal/configuration', { body: rest })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
  return (
    <>
      <PageTitle lead="O que uma cobrança vencida acrescenta: vale para as novas cobranças agendadas, carnês e boletos, salvo quando o produto ou a cobrança define outro.">
        Multa e juros
      </PageTitle>
      {config.isPending ? <Loading /> : null}
      <ErrorNote error={config.error} />
      {config.data ? (
        <DefaultsForm
          key={config.dataUpdatedAt}
          initial={config.data.lateCharges}
          busy={save.isPending}
          error={save.error}
          saved={save.isSuccess}
          emptyMeans="Campo vazio: sem multa ou sem juros nas novas cobranças."
          onSave={(lateCharges) => save.mutate({ ...config.data, lateCharges })}
        />
      ) : null}
      <section className="card" aria-labelledby="discounts-note">
        <h2 id="discounts-note">Desconto por pagamento antecipado</h2>
        {canWrite ? (
          <p>
            O desconto tem datas (até o dia X, Y% de desconto), por isso é definido em cada cobrança: em{' '}
            <Link to="/cobrancas/nova">Nova cobrança</Link> e em <Link to="/carnes/novo">Novo carnê</Link>.
          </p>
        ) : (
          <p>
            O desconto tem datas (até o dia X, Y% de desconto), por isso é definido em cada cobrança e carnê.
          </p>
        )}
      </section>
    </>
  );
}

/** Fine and interest defaults (the seller's or a product's), checked against the caps before saving. */
export function DefaultsForm(props: {
  initial: Effective['lateCharges'];
  busy: boolean;
  error: unknown;
  saved: boolean;
  emptyMeans: string;
  onSave: (lateCharges: Effective['lateCharges']) => void;
  submitLabel?: string;
  /** The form's frame: a card of its own (the settings view) or none (inside a product's card). */
  className?: string;
}) {
  const canWrite = useCan('write');
  const [draft, setDraft] = useState<LateChargeDraft>(() => draftOfDefaults(props.initial));
  const [checked, setChecked] = useState(false);
  const errors = checked ? checkDraft(draft) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(checkDraft(draft)).length === 0) props.onSave(defaultsBody(draft));
  };
  const example = lateExample(draft);
  return (
    <form className={props.className ?? 'card stack'} onSubmit={submit} aria-label="Multa e juros" noValidate>
      <LateChargeInputs
        kind="defaults"
        draft={draft}
        onChange={setDraft}
        errors={errors}
        apiError={props.error}
        emptyMeans={props.emptyMeans}
        disabled={!canWrite}
      />
      {example ? <p aria-live="polite">{example}</p> : null}
      <RoleNote access="write" what="multa e juros são alterados" />
      {canWrite ? (
        <div>
          <button type="submit" className="primary" disabled={props.busy}>
            {props.submitLabel ?? 'Salvar multa e juros'}
          </button>
        </div>
      ) : null}
      {props.saved ? (
        <output className="status">Multa e juros salvos: valem para as novas cobranças.</output>
      ) : null}
      <ErrorNote error={props.error} portuguese omit={LATE_CHARGE_FIELDS} />
    </form>
  );
}
