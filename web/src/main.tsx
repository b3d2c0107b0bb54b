// The app's entry (app.html, which the server sends for every address but `/`): the router and
// every page, each loaded on demand.

import "./styles.css";

import { App } from "./app/app";
import { mount } from "./app/mount";

mount((i18n) => <App i18n={i18n} />);
