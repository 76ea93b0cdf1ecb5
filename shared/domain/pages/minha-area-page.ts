import { ASSET_PATH } from './checkout-page';
import { html } from './html';
import type { PageAnswer } from './page';

/**
 * GET /minha-area: the same document for everyone. The magic link's token arrives in the URL
 * fragment, which the browser never sends, so the page cannot be rendered with the customer's data
 * on the server: its script reads the fragment, asks the token routes of the customer-area group
 * and builds the list with DOM text nodes (seller and charge texts can only ever be text).
 * Without a token it shows the form that asks for a link.
 */
export function minhaAreaPage(): PageAnswer {
  const body = html`<main class="checkout minha-area" id="minha-area">
<header class="area-header">
<h1>Minha Área</h1>
<p class="hint">Suas cobranças com todos os vendedores, em um só lugar.</p>
</header>
<p class="sandbox" id="sandbox" role="note" hidden>Ambiente de teste: nenhuma cobrança real será feita.</p>
<p class="waiting" id="loading" role="status" hidden>Carregando suas cobranças…</p>
<section class="box" id="request" aria-labelledby="request-title">
<h2 id="request-title">Receba seu link de acesso</h2>
<p class="form-error" id="link-problem" role="alert" hidden></p>
<form id="request-form" novalidate>
<p class="hint">Enviaremos um link para o e-mail do seu cadastro. Ele vale por 30 minutos.</p>
<div class="field">
<label for="target">E-mail ou CPF/CNPJ</label>
<input id="target" type="text" autocomplete="email" autocapitalize="none" spellcheck="false" maxlength="254" required aria-describedby="request-error">
</div>
<p class="form-error" id="request-error" role="alert" hidden></p>
<button class="primary" type="submit" id="request-button">Enviar link de acesso</button>
</form>
<div class="notice" id="request-sent" role="status" hidden>
<h2>Verifique seu e-mail</h2>
<p id="request-sent-text"></p>
<button class="link" type="button" id="request-again">Usar outro e-mail ou documento</button>
</div>
</section>
<section id="area" aria-labelledby="greeting" hidden>
<h2 class="greeting" id="greeting"></h2>
<div id="sellers"></div>
<button class="link" type="button" id="sign-out">Sair</button>
</section>
<noscript><p class="form-error">Ative o JavaScript do navegador para usar a Minha Área.</p></noscript>
</main>`;
  return {
    status: 200,
    html: html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Minha Área</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET_PATH}/checkout.css">
<link rel="stylesheet" href="${ASSET_PATH}/minha-area.css">
<script type="module" src="${ASSET_PATH}/minha-area.js"></script>
</head>
<body>
${body}
</body>
</html>
`.value,
  };
}
