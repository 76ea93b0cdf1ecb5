import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { must, type Schemas } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { addDays, formatBrl, formatDateTime, formatDay, todayInSaoPaulo } from '../../components/format';
import { ErrorNote, Field, Loading } from '../../components/ui';
import { eventSentence } from '../developers/event-sentences';

type Summary = Schemas['DashboardSummary'];
type Period = 'today' | '7' | '30' | 'range';

const PERIODS: { value: Period; label: string }[] = [
  { value: 'today', label: 'Hoje' },
  { value: '7', label: '7 dias' },
  { value: '30', label: '30 dias' },
  { value: 'range', label: 'Período' },
];

/** The API's longest range (GET /api/dashboard/summary). */
const MAX_DAYS = 92;

const METHOD_LABEL: Record<keyof Summary['byMethod'], string> = {
  pix: 'Pix',
  boleto: 'Boleto',
  card: 'Cartão',
  pixAutomatic: 'Pix Automático',
};

function rangeOf(period: Period, today: string, chosen: { from: string; to: string }) {
  if (period === 'today') return { from: today, to: today };
  if (period === '7') return { from: addDays(today, -6), to: today };
  if (period === '30') return { from: addDays(today, -29), to: today };
  return chosen;
}

/** The chosen range is sent only when the API would take it; the fields say why otherwise. */
function rangeProblem(r: { from: string; to: string }): string | null {
  if (!r.from || !r.to) return 'Escolha as duas datas.';
  if (r.from > r.to) return 'A data final deve ser igual ou posterior à inicial.';
  const days = (Date.parse(r.to) - Date.parse(r.from)) / 86_400_000 + 1;
  if (days > MAX_DAYS) return `Escolha no máximo ${MAX_DAYS} dias.`;
  return null;
}

export function useSummary(range: { from: string; to: string }, enabled: boolean) {
  const { api } = useApp();
  return useQuery({
    queryKey: useKey('dashboard-summary', range.from, range.to),
    queryFn: () => must(api.GET('/api/dashboard/summary', { params: { query: range } })),
    enabled,
  });
}

/** Início's business half: the period's sales, the chart by day, the split by method, a receber, activity. One request. */
export function SalesOverview() {
  const today = todayInSaoPaulo();
  const [period, setPeriod] = useState<Period>('30');
  const [chosen, setChosen] = useState({ from: addDays(today, -13), to: today });
  const range = rangeOf(period, today, chosen);
  const problem = period === 'range' ? rangeProblem(range) : null;
  const summary = useSummary(range, problem === null);

  return (
    <>
      <section className="card" aria-labelledby="sales">
        <div className="row wrap spread">
          <h2 id="sales">Vendas</h2>
          <fieldset className="periods">
            <legend className="visually-hidden">Período</legend>
            {PERIODS.map((p) => (
              <label key={p.value} className={period === p.value ? 'period chosen' : 'period'}>
                <input
                  type="radio"
                  name="period"
                  value={p.value}
                  checked={period === p.value}
                  onChange={() => setPeriod(p.value)}
                />
                {p.label}
              </label>
            ))}
          </fieldset>
        </div>
        {period === 'range' ? (
          <div className="filters">
            <Field
              label="De"
              type="date"
              value={chosen.from}
              max={today}
              onChange={(e) => setChosen({ ...chosen, from: e.target.value })}
            />
            <Field
              label="Até"
              type="date"
              value={chosen.to}
              onChange={(e) => setChosen({ ...chosen, to: e.target.value })}
            />
          </div>
        ) : null}
        {problem ? (
          <p role="alert" className="error">
            {problem}
          </p>
        ) : null}
        {summary.isPending && !problem ? <Loading /> : null}
        <ErrorNote error={summary.error} />
        {summary.data && !problem ? <Figures summary={summary.data} /> : null}
      </section>
      {summary.data && !problem ? (
        <>
          <DayChart summary={summary.data} />
          <Receivables summary={summary.data} />
          <Activity summary={summary.data} />
        </>
      ) : null}
    </>
  );
}

function Figures({ summary }: { summary: Summary }) {
  const rate =
    summary.approvalRate === null ? '—' : `${(summary.approvalRate * 100).toFixed(1).replace('.', ',')}%`;
  const span =
    summary.from === summary.to
      ? `Em ${formatDay(summary.from)}`
      : `De ${formatDay(summary.from)} a ${formatDay(summary.to)}`;
  return (
    <>
      <p className="muted">{span}</p>
      <dl className="figures">
        <div>
          <dt>Vendas brutas</dt>
          <dd>{formatBrl(summary.gross)}</dd>
        </div>
        <div>
          <dt>Líquido</dt>
          <dd>{formatBrl(summary.net)}</dd>
        </div>
        <div>
          <dt>Vendas pagas</dt>
          <dd>{summary.count}</dd>
        </div>
        <div>
          <dt>Ticket médio</dt>
          <dd>{formatBrl(summary.averageTicket)}</dd>
        </div>
        <div>
          <dt>Aprovação</dt>
          <dd>{rate}</dd>
        </div>
      </dl>
      <ScrollTable label="Por forma de pagamento">
        <table>
          <caption>Por forma de pagamento</caption>
          <thead>
            <tr>
              <th scope="col">Forma</th>
              <th scope="col">Vendas</th>
              <th scope="col">Bruto</th>
              <th scope="col">Líquido</th>
            </tr>
          </thead>
          <tbody>
            {(Object.keys(METHOD_LABEL) as (keyof Summary['byMethod'])[]).map((m) => (
              <tr key={m}>
                <th scope="row">{METHOD_LABEL[m]}</th>
                <td>{summary.byMethod[m].count}</td>
                <td>{formatBrl(summary.byMethod[m].gross)}</td>
                <td>{formatBrl(summary.byMethod[m].net)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <p className="muted small">
        Bruto: o que os compradores pagaram, menos estornos e chargebacks em aberto. Líquido: descontadas as
        tarifas e as comissões de afiliados. Cada venda conta no dia em que foi criada.
      </p>
    </>
  );
}

const CHART = { width: 640, height: 180, top: 10, bottom: 2 };

/** Gross by day as bars (SVG), described for screen readers, with the same numbers as a table. */
function DayChart({ summary }: { summary: Summary }) {
  const days = summary.byDay;
  const peak = Math.max(...days.map((d) => d.gross), 0);
  const best = days.reduce((a, b) => (b.gross > a.gross ? b : a), days[0]);
  const slot = CHART.width / days.length;
  const usable = CHART.height - CHART.top - CHART.bottom;
  const label =
    peak === 0
      ? 'Gráfico de vendas por dia: nenhuma venda no período.'
      : `Gráfico de vendas brutas por dia, de ${formatDay(summary.from)} a ${formatDay(summary.to)}: maior dia ${formatDay(best.date)} com ${formatBrl(best.gross)}.`;
  return (
    <section className="card" aria-labelledby="by-day">
      <h2 id="by-day">Vendas por dia</h2>
      {peak === 0 ? <p className="muted">Nenhuma venda paga no período.</p> : null}
      <svg
        className="chart"
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        role="img"
        aria-label={label}
        preserveAspectRatio="none"
      >
        <line
          x1="0"
          x2={CHART.width}
          y1={CHART.height - CHART.bottom}
          y2={CHART.height - CHART.bottom}
          stroke="#d5d9e2"
        />
        {days.map((d, i) => {
          const h = peak ? (d.gross / peak) * usable : 0;
          return (
            <g key={d.date}>
              <rect
                x={i * slot + slot * 0.15}
                width={slot * 0.7}
                y={CHART.height - CHART.bottom - h}
                height={h}
                fill="#3d3aa8"
              />
            </g>
          );
        })}
      </svg>
      <div className="chart-axis" aria-hidden="true">
        <span>{formatDay(days[0].date, true)}</span>
        {days.length > 2 ? <span>{formatDay(days[Math.floor(days.length / 2)].date, true)}</span> : null}
        {days.length > 1 ? <span>{formatDay(days[days.length - 1].date, true)}</span> : null}
      </div>
      <details>
        <summary>Ver os números do gráfico</summary>
        <ScrollTable label="Vendas por dia">
          <table>
            <caption className="visually-hidden">Vendas por dia</caption>
            <thead>
              <tr>
                <th scope="col">Dia</th>
                <th scope="col">Vendas</th>
                <th scope="col">Bruto</th>
                <th scope="col">Líquido</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{formatDay(d.date)}</th>
                  <td>{d.count}</td>
                  <td>{formatBrl(d.gross)}</td>
                  <td>{formatBrl(d.net)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      </details>
    </section>
  );
}

function Receivables({ summary }: { summary: Summary }) {
  const { receivables, upcoming } = summary;
  const nothingDue =
    upcoming.scheduledCharges.items.length +
      upcoming.installments.items.length +
      upcoming.renewals.items.length ===
    0;
  return (
    <section className="card" aria-labelledby="receivables">
      <h2 id="receivables">A receber</h2>
      <p>
        <strong>{formatBrl(receivables.total)}</strong> até {formatDay(receivables.until)}, já descontadas as
        tarifas.
      </p>
      <p className="muted small">
        Pix e boletos pendentes pelo vencimento; cartão em D+30 da venda; boleto pago compensa em D+1; pix
        pago cai no mesmo dia.
      </p>
      {receivables.days.length ? (
        <ScrollTable label="A receber por dia">
          <table>
            <caption className="visually-hidden">A receber por dia</caption>
            <thead>
              <tr>
                <th scope="col">Dia</th>
                <th scope="col">Pix pendente</th>
                <th scope="col">Boleto pendente</th>
                <th scope="col">Cartão</th>
                <th scope="col">Boleto compensando</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {receivables.days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{formatDay(d.date)}</th>
                  <td>{formatBrl(d.pendingPix)}</td>
                  <td>{formatBrl(d.pendingBoleto)}</td>
                  <td>{formatBrl(d.card)}</td>
                  <td>{formatBrl(d.boletoClearing)}</td>
                  <td>{formatBrl(d.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      ) : null}
      <h3>Vencem nos próximos 30 dias</h3>
      {nothingDue ? <p className="muted">Nenhuma cobrança agendada, parcela de carnê ou renovação.</p> : null}
      <ul className="list">
        {upcoming.scheduledCharges.items.map((c) => (
          <li key={c.id} className="item">
            <div>
              Cobrança agendada · {c.customerName}
              <div className="muted small">vence {formatDay(c.dueDate)}</div>
            </div>
            <strong>{formatBrl(c.amount)}</strong>
          </li>
        ))}
        {upcoming.installments.items.map((i) => (
          <li key={`${i.planUuid}-${i.number}`} className="item">
            <div>
              Carnê, parcela {i.number} de {i.of} · {i.customerName}
              <div className="muted small">vence {formatDay(i.dueDate)}</div>
            </div>
            <strong>{formatBrl(i.amount)}</strong>
          </li>
        ))}
        {upcoming.renewals.items.map((r) => (
          <li key={r.subscriptionId} className="item">
            <div>
              Renovação de assinatura · {r.customerName}
              <div className="muted small">renova {formatDay(r.date)}</div>
            </div>
            <strong>{formatBrl(r.amount)}</strong>
          </li>
        ))}
      </ul>
      {upcoming.scheduledCharges.totalCount > upcoming.scheduledCharges.items.length ||
      upcoming.installments.more ||
      upcoming.renewals.more ? (
        <p className="muted small">Mostrando os primeiros; há mais cobranças no período.</p>
      ) : null}
    </section>
  );
}

function Activity({ summary }: { summary: Summary }) {
  return (
    <section className="card" aria-labelledby="activity">
      <h2 id="activity">Atividade recente</h2>
      {summary.recentActivity.length === 0 ? <p className="muted">Nada ainda nos últimos 30 dias.</p> : null}
      <ul className="list">
        {summary.recentActivity.map((e) => (
          <li key={e.id} className="item">
            <div>
              {eventSentence(e.event) || e.event}
              <div className="muted small">
                <code>{e.event}</code>
              </div>
            </div>
            <span className="muted">{formatDateTime(e.timestamp)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A table that scrolls sideways on a phone: a labelled region the keyboard can reach and scroll. */
function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard (axe scrollable-region-focusable)
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
