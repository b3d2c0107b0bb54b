/// <reference types="vitest/config" />
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath, URL } from "node:url";
import { defineConfig, type HtmlTagDescriptor, type Plugin } from "vite";

// In development the Vite server forwards the API (REST and gRPC-Web) to the Rust server on :8080,
// so the browser talks to one origin as it does in production.
const api = process.env.SOCIO_API ?? "http://127.0.0.1:8080";

// The head of both pages (index.html and app.html), in one place.
function sharedHead(): Plugin {
  const meta = (attrs: Record<string, string>): HtmlTagDescriptor => ({ tag: "meta", attrs, injectTo: "head-prepend" });
  return {
    name: "socio-shared-head",
    transformIndexHtml: () => [
      meta({ charset: "UTF-8" }),
      meta({ name: "google", content: "notranslate" }),
      meta({ name: "viewport", content: "width=device-width, initial-scale=1.0" }),
      meta({
        name: "description",
        content: "Sócio: seu consultor de negócios com IA no WhatsApp. Plano de negócios completo, orientação em marketing, finanças, gestão e impostos.",
      }),
      meta({ name: "theme-color", content: "#047857" }),
      { tag: "link", attrs: { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }, injectTo: "head" },
      { tag: "title", children: "Sócio — consultor de negócios com IA no WhatsApp", injectTo: "head" },
    ],
  };
}

// Two pages: index.html is the landing page alone (what `/` gets), app.html the app with its router
// (what every other address gets). The Rust server picks between them; so does this, in development.
function appPageForEveryOtherAddress(): Plugin {
  return {
    name: "socio-app-page",
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const path = request.url?.split("?")[0] ?? "/";
        const isPage = request.headers.accept?.includes("text/html") && !path.includes(".") && path !== "/";
        if (isPage) request.url = "/app.html";
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), sharedHead(), appPageForEveryOtherAddress()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    proxy: {
      "/api": api,
      "^/(socio\\.v1\\.|grpc\\.)": api,
    },
  },
  build: {
    target: "es2022",
    sourcemap: false,
    // Read by scripts/bundle-budget.mjs to find what the landing page loads.
    manifest: true,
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL("./index.html", import.meta.url)),
        app: fileURLToPath(new URL("./app.html", import.meta.url)),
      },
    },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/testing/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    testTimeout: 15_000,
  },
});
