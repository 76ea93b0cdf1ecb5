import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalMailbox } from '#infra/local/mailbox';
import { createMailLog, createSandboxMailbox } from '#shared/adapters/dynamodb/mail-repository';
import { newMailId } from '#shared/domain/mail/delivery';
import type { Mailbox, MailLog, StoredMail } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, ValidationError } from '#shared/errors';
import { SequentialIds } from '../support/fakes/ids';
import { FakeMailLog } from '../support/fakes/mail';
import { freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ids = new SequentialIds();
/** The n-th message, kept n minutes after the first. */
function mail(n: number, overrides: Partial<StoredMail> = {}): StoredMail {
  const at = new Date(Date.UTC(2026, 10, 22, 12, n));
  return {
    id: newMailId({ ids }, at),
    tenant: SELLER,
    to: 'maria@example.com',
    subject: `Recibo ${n}`,
    text: `Valor: R$ ${n},00`,
    html: `<p>Valor: R$ ${n},00</p>`,
    kind: 'receipt',
    createdAt: at.toISOString(),
    ...overrides,
  };
}

const summary = ({ text: _t, html: _h, ...rest }: StoredMail) => rest;

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

describe.each([
  ['local mailbox in memory', async (): Promise<Mailbox> => new LocalMailbox(null)],
  [
    'local mailbox folder',
    async (): Promise<Mailbox> => {
      const dir = mkdtempSync(join(tmpdir(), 'mailbox-'));
      folders.push(dir);
      return new LocalMailbox(join(dir, 'mail'));
    },
  ],
  ['DynamoDB Local sandbox mailbox', async (): Promise<Mailbox> => createSandboxMailbox(await freshTable())],
])('Mailbox contract (%s)', (_name, make) => {
  async function walk(box: Mailbox, tenant: Tenant, limit: number, to?: string) {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await box.list(tenant, { limit, cursor, to });
      pages.push(page.items.map((m) => m.subject));
      cursor = page.cursor;
      if (pages.length > 6) throw new Error('the cursor never ends');
    } while (cursor);
    return pages;
  }

  it('reads a kept message back whole, and lists it without its body', async () => {
    const box = await make();
    const kept = mail(1);
    await box.keep(kept);
    expect(await box.get(SELLER, kept.id)).toEqual(kept);
    expect(await box.list(SELLER, { limit: 20 })).toEqual({ items: [summary(kept)] });
  });

  it('keeps a message without an HTML part or a kind', async () => {
    const box = await make();
    const kept = mail(1, { html: null, kind: null });
    await box.keep(kept);
    expect(await box.get(SELLER, kept.id)).toEqual(kept);
  });

  it('lists newest first in pages, with no cursor on the last page', async () => {
    const box = await make();
    for (const n of [3, 1, 5, 2, 4]) await box.keep(mail(n));
    expect(await walk(box, SELLER, 2)).toEqual([
      ['Recibo 5', 'Recibo 4'],
      ['Recibo 3', 'Recibo 2'],
      ['Recibo 1'],
    ]);
    expect(await walk(box, SELLER, 5)).toEqual([
      ['Recibo 5', 'Recibo 4', 'Recibo 3', 'Recibo 2', 'Recibo 1'],
    ]);
  });

  it('filters by recipient, whatever the case of the address asked', async () => {
    const box = await make();
    await box.keep(mail(1));
    await box.keep(mail(2, { to: 'joao@example.com' }));
    await box.keep(mail(3));
    expect(await walk(box, SELLER, 1, 'MARIA@example.com')).toEqual([['Recibo 3'], ['Recibo 1']]);
    expect(await walk(box, SELLER, 10, 'joao@example.com')).toEqual([['Recibo 2']]);
    expect(await walk(box, SELLER, 10, 'ninguem@example.com')).toEqual([[]]);
  });

  it("never shows another tenant's message, in a list or by id", async () => {
    const box = await make();
    const mine = mail(1);
    const theirs = mail(2, { tenant: OTHER_SELLER });
    const myLive = mail(3, { tenant: LIVE });
    for (const m of [mine, theirs, myLive]) await box.keep(m);
    expect((await box.list(SELLER, { limit: 20 })).items.map((m) => m.id)).toEqual([mine.id]);
    expect((await box.list(OTHER_SELLER, { limit: 20 })).items.map((m) => m.id)).toEqual([theirs.id]);
    expect(await box.get(SELLER, theirs.id)).toBeNull();
    expect(await box.get(SELLER, myLive.id)).toBeNull();
    expect(await box.get(OTHER_SELLER, mine.id)).toBeNull();
    expect(await box.get(SELLER, mail(9).id)).toBeNull();
  });

  it('refuses a cursor it did not make with a 400', async () => {
    const box = await make();
    await box.keep(mail(1));
    const error = await failureOf(box.list(SELLER, { limit: 1, cursor: 'not-a-cursor' }));
    expect(error).toBeInstanceOf(ValidationError);
  });
});

describe.each([
  ['in-memory fake', async (): Promise<MailLog> => new FakeMailLog()],
  ['DynamoDB Local', async (): Promise<MailLog> => createMailLog(await freshTable())],
])('MailLog contract (%s)', (_name, make) => {
  const now = new Date('2026-11-22T12:00:00.000Z');
  const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  it('claims a key once: a second claim within the lease is a conflict', async () => {
    const log = await make();
    await log.claim('receipt#evt_1', now, 90);
    const error = await failureOf(log.claim('receipt#evt_1', later(30), 90));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).reason).toBe('already_exists');
    await log.claim('receipt#evt_2', later(30), 90);
  });

  it('lets a claim whose lease ran out be taken again', async () => {
    const log = await make();
    await log.claim('receipt#evt_1', now, 90);
    await log.claim('receipt#evt_1', later(91), 90);
  });

  it('never lets a sent key be claimed again, however late', async () => {
    const log = await make();
    await log.claim('receipt#evt_1', now, 90);
    await log.markSent('receipt#evt_1', later(1));
    expect(await failureOf(log.claim('receipt#evt_1', later(86_400), 90))).toBeInstanceOf(ConflictError);
  });

  it('frees a released claim at once, but does not release a sent key', async () => {
    const log = await make();
    await log.claim('receipt#evt_1', now, 90);
    await log.release('receipt#evt_1');
    await log.claim('receipt#evt_1', later(1), 90);
    await log.markSent('receipt#evt_1', later(2));
    await log.release('receipt#evt_1');
    expect(await failureOf(log.claim('receipt#evt_1', later(3), 90))).toBeInstanceOf(ConflictError);
    await log.release('receipt#never-claimed');
  });
});
