// The landing page's entry (index.html, which the server sends for `/`): the page alone, with no
// router and no API client, so that everything it needs is preloaded with the HTML.

import "./styles.css";

import { LandingApp } from "./app/landing-app";
import { mount } from "./app/mount";

mount((i18n) => <LandingApp i18n={i18n} search={window.location.search} />);
