import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalMailbox } from '#infra/local/mailbox';
import { keepingMailer, routeMail } from '#shared/domain/mail/delivery';
import type { StoredMail } from '#shared/domain/ports';
import { FakeClock } from '../support/fakes/clock';
import { SequentialIds } from '../support/fakes/ids';

const SELLER = { sellerId: 7, environment: 'test' } as const;
const LIVE = { sellerId: 7, environment: 'live' } as const;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'local-mailbox-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The local runtime's wiring: no live mailer, so every message is kept in the mailbox. */
function localMailer(box: LocalMailbox, clock = new FakeClock('2026-11-22T12:00:00.000Z')) {
  const kept = keepingMailer({ ids: new SequentialIds(), clock, store: box });
  return routeMail({ sandbox: kept, live: kept });
}

describe('LocalMailbox', () => {
  it('writes each message as one JSON file under <dataDir>/mail/', async () => {
    const box = new LocalMailbox(join(root, 'mail'));
    await localMailer(box).send({
      to: 'maria@example.com',
      subject: 'Recibo',
      text: 'Valor: R$ 49,90',
      html: '<p>R$ 49,90</p>',
      tenant: SELLER,
      kind: 'receipt',
    });
    const files = readdirSync(join(root, 'mail'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^msg_[0-9a-z]{9}[A-Za-z0-9]{16}\.json$/);
    const stored = JSON.parse(readFileSync(join(root, 'mail', files[0]), 'utf8')) as StoredMail;
    expect(stored).toEqual({
      id: files[0].replace('.json', ''),
      tenant: SELLER,
      to: 'maria@example.com',
      subject: 'Recibo',
      text: 'Valor: R$ 49,90',
      html: '<p>R$ 49,90</p>',
      kind: 'receipt',
      createdAt: '2026-11-22T12:00:00.000Z',
    });
  });

  it("keeps live tenants' mail and mail of no tenant too (nothing is sent locally)", async () => {
    const box = new LocalMailbox(join(root, 'mail'));
    const mailer = localMailer(box);
    await mailer.send({ to: 'a@example.com', subject: 'live', text: 't', tenant: LIVE });
    await mailer.send({ to: 'b@example.com', subject: 'none', text: 't' });
    expect(
      box
        .all()
        .map((m) => m.subject)
        .sort(),
    ).toEqual(['live', 'none']);
    // The test helper is sandbox-only: mail of no tenant is in the folder, never in a tenant's list.
    expect((await box.list(SELLER, { limit: 10 })).items).toEqual([]);
  });

  it('finds its messages again after a restart, and forgets a file removed by hand', async () => {
    const dir = join(root, 'mail');
    const clock = new FakeClock('2026-11-22T12:00:00.000Z');
    const mailer = localMailer(new LocalMailbox(dir), clock);
    await mailer.send({ to: 'a@example.com', subject: 'first', text: 't', tenant: SELLER });
    clock.advanceSeconds(60);
    await mailer.send({ to: 'a@example.com', subject: 'second', text: 't', tenant: SELLER });

    const reopened = new LocalMailbox(dir);
    const page = await reopened.list(SELLER, { limit: 10 });
    expect(page.items.map((m) => m.subject)).toEqual(['second', 'first']);
    unlinkSync(join(dir, `${page.items[0].id}.json`));
    expect((await reopened.list(SELLER, { limit: 10 })).items.map((m) => m.subject)).toEqual(['first']);
    expect(await reopened.get(SELLER, page.items[0].id)).toBeNull();
  });

  it('ignores files that are not messages', async () => {
    const dir = join(root, 'mail');
    const box = new LocalMailbox(dir);
    await localMailer(box).send({ to: 'a@example.com', subject: 's', text: 't', tenant: SELLER });
    writeFileSync(join(dir, 'notes.json'), '{"hello":1}');
    writeFileSync(join(dir, `msg_000000000${'A'.repeat(16)}.json`), 'not json');
    expect((await box.list(SELLER, { limit: 10 })).items).toHaveLength(1);
  });

  it('keeps everything in memory when the runtime keeps nothing (dataDir null)', async () => {
    const box = new LocalMailbox(null);
    await localMailer(box).send({ to: 'a@example.com', subject: 's', text: 't', tenant: SELLER });
    expect(box.all()).toHaveLength(1);
    expect(existsSync(join(root, 'mail'))).toBe(false);
  });

  it('answers no message for an id of another shape, without touching the disk', async () => {
    const box = new LocalMailbox(join(root, 'mail'));
    expect(await box.get(SELLER, '../../etc/passwd')).toBeNull();
  });
});
