/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the API (and its socket.io gateway); empty or unset means the same origin as the web app. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
