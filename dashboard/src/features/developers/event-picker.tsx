import { DEPRECATED_EVENTS, EVENT_GROUPS } from './event-sentences';

/**
 * The events an endpoint receives: every event (`*`), or the ones ticked, each with its sentence.
 * A deprecated name an endpoint already lists stays listed (and may be unticked).
 */
export function EventPicker({ value, onChange }: { value: string[]; onChange: (events: string[]) => void }) {
  const all = value.includes('*');
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value.filter((v) => v !== name), name] : value.filter((v) => v !== name));
  const deprecated = value.filter((name) => name in DEPRECATED_EVENTS);
  return (
    <fieldset className="events">
      <legend>Eventos enviados</legend>
      <label className="check">
        <input type="checkbox" checked={all} onChange={(e) => onChange(e.target.checked ? ['*'] : [])} />
        <span>
          <strong>Todos os eventos</strong>
          <span className="muted"> — inclusive os que forem criados no futuro.</span>
        </span>
      </label>
      {all
        ? null
        : EVENT_GROUPS.map((group) => (
            <fieldset key={group.title} className="event-group">
              <legend>{group.title}</legend>
              {Object.entries(group.events).map(([name, sentence]) => (
                <label key={name} className="check">
                  <input
                    type="checkbox"
                    checked={value.includes(name)}
                    onChange={(e) => toggle(name, e.target.checked)}
                  />
                  <span>
                    <code>{name}</code> <span className="muted">{sentence}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          ))}
      {deprecated.map((name) => (
        <label key={name} className="check">
          <input type="checkbox" checked onChange={(e) => toggle(name, e.target.checked)} />
          <span>
            <code>{name}</code> <span className="muted">{DEPRECATED_EVENTS[name]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
