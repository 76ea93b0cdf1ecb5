import { type ReactNode, useState } from 'react';
import { useApp } from './context';
import { Link, useLocation } from './router';
import { SellerSwitcher } from './sellers';

const NAV: { to: string; label: string }[] = [
  { to: '/', label: 'Início' },
  { to: '/vendas', label: 'Vendas' },
  { to: '/clientes', label: 'Clientes' },
  { to: '/produtos', label: 'Produtos' },
  { to: '/assinaturas', label: 'Assinaturas' },
  { to: '/cobrancas', label: 'Cobranças agendadas' },
  { to: '/carnes', label: 'Carnês' },
  { to: '/configuracoes/multa-e-juros', label: 'Multa e juros' },
  { to: '/configuracoes/regua-de-cobranca', label: 'Régua de cobrança' },
  { to: '/sessoes', label: 'Sessões de checkout' },
  { to: '/portal', label: 'Portal do cliente' },
  { to: '/desenvolvedores/chaves', label: 'Chaves de API' },
  { to: '/desenvolvedores/webhooks', label: 'Webhooks' },
  { to: '/desenvolvedores/eventos', label: 'Eventos' },
  { to: '/desenvolvedores/registros', label: 'Registros de API' },
  { to: '/asaas', label: 'Conectar Asaas' },
  { to: '/configuracoes/perfil', label: 'Perfil do negócio' },
  { to: '/configuracoes/equipe', label: 'Equipe' },
  { to: '/conta', label: 'Conta' },
];

/** The frame of every signed-in view: the mode switch, the menu, and the view. */
export function Shell({ children }: { children: ReactNode }) {
  const { environment, setEnvironment, session } = useApp();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const testMode = environment === 'test';
  const current = (to: string) => (to === '/' ? path === '/' : path === to || path.startsWith(`${to}/`));
  return (
    <div className={testMode ? 'shell test-mode' : 'shell'}>
      <a className="skip" href="#conteudo">
        Pular para o conteúdo
      </a>
      <header>
        {testMode ? (
          <p className="test-banner">Modo de teste: dados do sandbox, nada é cobrado de verdade.</p>
        ) : null}
        <div className="topbar">
          <span className="brand">Painel do vendedor</span>
          <SellerSwitcher />
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              aria-checked={testMode}
              checked={testMode}
              onChange={(e) => setEnvironment(e.target.checked ? 'test' : 'live')}
            />
            <span>Modo de teste</span>
          </label>
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            Menu
          </button>
        </div>
      </header>
      <div className="layout">
        <nav id="menu" aria-label="Menu principal" className={menuOpen ? 'open' : undefined}>
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  aria-current={current(item.to) ? 'page' : undefined}
                  onClick={() => setMenuOpen(false)}
                >
                  {item.label}
                </Link>
              </li>
            ))}
            <li>
              <button type="button" className="link" onClick={() => void session.signOut()}>
                Sair
              </button>
            </li>
          </ul>
        </nav>
        <main id="conteudo">{children}</main>
      </div>
    </div>
  );
}
