import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { must, type Schemas } from '../api/client';
import { useApp } from './context';

export type Role = Schemas['MySellers']['sellers'][number]['role'];
export type Access = 'read' | 'write' | 'developer' | 'admin';

/** What each role reaches: the API's own table (shared/domain/team/roles.ts); the API enforces it. */
const GRANTS: Record<Role, readonly Access[]> = {
  owner: ['read', 'write', 'developer', 'admin'],
  admin: ['read', 'write', 'developer', 'admin'],
  developer: ['read', 'developer'],
  viewer: ['read'],
};

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Proprietário',
  admin: 'Administrador',
  developer: 'Desenvolvedor',
  viewer: 'Leitor',
};

/** The sellers the user belongs to (GET /api/auth/sellers: the login's own first). */
export function useSellers() {
  const { api } = useApp();
  return useQuery({
    queryKey: ['my-sellers'],
    queryFn: () => must(api.GET('/api/auth/sellers')),
    staleTime: 60_000,
  });
}

/** The seller the views act on: the one chosen in the switcher, else the login's own. */
export function useCurrentSeller() {
  const { sellerId } = useApp();
  const sellers = useSellers().data?.sellers ?? [];
  return sellers.find((s) => (sellerId === null ? s.home : s.id === sellerId)) ?? null;
}

/**
 * Whether the user's role in the current seller reaches `access`. Views hide what it does not (a
 * viewer sees no refund or create button); the API refuses it anyway (403 role_forbidden).
 */
export function useCan(access: Access): boolean {
  const seller = useCurrentSeller();
  return seller ? GRANTS[seller.role].includes(access) : false;
}

const NEEDS: Record<Exclude<Access, 'read'>, string> = {
  write: 'proprietários e administradores',
  developer: 'proprietários, administradores e desenvolvedores',
  admin: 'proprietários e administradores',
};

/**
 * Says, where a view's actions would be, that the user's role only reads them (a viewer on a
 * product, a developer on a carnê): nothing is shown when the role reaches `access`.
 */
export function RoleNote({ access, what }: { access: Exclude<Access, 'read'>; what: string }) {
  const seller = useCurrentSeller();
  if (!seller || GRANTS[seller.role].includes(access)) return null;
  return (
    <p className="muted role-note">
      Seu papel ({ROLE_LABELS[seller.role]}) só consulta: {what} só por {NEEDS[access]}.
    </p>
  );
}

/** The top bar's seller switcher, shown when the user belongs to more than one seller. */
export function SellerSwitcher() {
  const { sellerId, setSellerId } = useApp();
  const sellers = useSellers().data?.sellers ?? [];
  const id = useId();
  if (sellers.length < 2) return null;
  const current = sellerId ?? sellers.find((s) => s.home)?.id;
  return (
    <div className="seller-switcher">
      <label htmlFor={id}>Vendedor</label>
      <select
        id={id}
        value={current}
        onChange={(e) => {
          const chosen = sellers.find((s) => s.id === Number(e.target.value));
          if (chosen) setSellerId(chosen.home ? null : chosen.id);
        }}
      >
        {sellers.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({ROLE_LABELS[s.role]})
          </option>
        ))}
      </select>
    </div>
  );
}
