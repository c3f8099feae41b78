// Vite handles CSS imports.
declare module "*.css";
