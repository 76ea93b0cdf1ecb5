import { useState } from 'react';
import { ErrorNote } from './ui';

/** A button that downloads an export, with its failure shown beside it. */
export function ExportButton({ label, run }: { label: string; run: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  return (
    <div className="row wrap export">
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          setDone(false);
          try {
            await run();
            setDone(true);
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? 'Gerando o arquivo…' : label}
      </button>
      <span aria-live="polite" className="muted">
        {done ? 'Arquivo CSV baixado.' : ''}
      </span>
      <ErrorNote error={error} portuguese />
    </div>
  );
}
