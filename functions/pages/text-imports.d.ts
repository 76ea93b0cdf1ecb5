// The style sheet as esbuild's `type: 'text'` import attribute gives it (see assets.ts).
declare module '*/checkout.css' {
  const text: string;
  export default text;
}

declare module '*/portal.css' {
  const text: string;
  export default text;
}

declare module '*/minha-area.css' {
  const text: string;
  export default text;
}
