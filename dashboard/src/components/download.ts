import type { Api } from '../api/client';
import { ApiError } from '../api/client';

type ExportPath = '/api/transactions/export' | '/api/v1/customers/export';

/**
 * Downloads an export as one file: the API answers it in parts of about 5 MB (a Lambda answer's
 * limit), each naming the next in X-Next-Cursor; the parts are appended as bytes (a text decode
 * would drop the BOM Excel needs) and saved under `name-<day>.csv`.
 */
export async function downloadCsv(
  api: Api,
  path: ExportPath,
  query: Record<string, string | number | undefined>,
  name: string,
): Promise<void> {
  const parts: Blob[] = [];
  let cursor: string | undefined;
  do {
    const { data, error, response } = await api.GET(path, {
      params: { query: { ...query, cursor } as never },
      parseAs: 'blob',
    });
    if (!response.ok || !data) {
      const body = (error ?? {}) as { message?: string | string[]; code?: string };
      const messages = Array.isArray(body.message)
        ? body.message
        : [body.message ?? `Erro ${response.status}`];
      throw new ApiError(response.status, messages, body.code);
    }
    parts.push(data as Blob);
    cursor = response.headers.get('x-next-cursor') ?? undefined;
  } while (cursor);
  const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}-${new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
