// Vite handles CSS imports.
declare module "*.css";

// Vite's import.meta.env (the build's --mode).
interface ImportMeta {
  readonly env: { readonly MODE: string };
}

// The demo's fixed assets (plain JS, shared with the server side).
declare module "*/demo-data.mjs" {
  export function seedFixedAssets(options: { apiDomain: string; accessToken: string; organizationId: string; fetch?: typeof fetch; count?: number }): Promise<unknown[]>;
}
