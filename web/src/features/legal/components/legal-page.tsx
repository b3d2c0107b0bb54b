import { useTranslation } from "react-i18next";
import { Link } from "react-router";

import { PageShell } from "@/components/layout/page-shell";
import { LEGAL_PAGES, type LegalDocument, legalPath } from "@/lib/legal-paths";

import { useContact } from "../api/use-contact";

interface Section {
  id: string;
  title: string;
  items: string[];
}

/** Who the controller is and how to reach the data protection officer, from the server's contact. */
function Controller() {
  const { t } = useTranslation("legal");
  const contact = useContact();
  if (!contact.data) return <p className="text-sm text-slate-600">{t("loadingContact")}</p>;
  const { controllerName, controllerCnpj, email } = contact.data;
  return (
    <p className="rounded-xl bg-slate-50 p-4 text-sm text-slate-700 ring-1 ring-slate-200">
      {t("controllerLine", { name: controllerName, document: controllerCnpj ? `, CNPJ ${controllerCnpj}` : "" })}{" "}
      <a className="font-medium text-brand-700 underline" href={`mailto:${email}`}>
        {email}
      </a>
    </p>
  );
}

/** One legal document (privacy policy, terms of use, the LGPD rights), in the person's language. */
export function LegalPage({ document }: { document: LegalDocument }) {
  const { t, i18n } = useTranslation("legal");
  const sections = t(`${document}.sections`, { returnObjects: true }) as Section[];
  return (
    <PageShell>
      <article className="mx-auto max-w-3xl px-4 py-12">
        <nav aria-label={t("navLabel")} className="mb-8 flex flex-wrap gap-x-4 gap-y-2 text-sm">
          {(Object.keys(LEGAL_PAGES) as LegalDocument[]).map((other) => (
            <Link
              key={other}
              to={legalPath(other, i18n.language)}
              aria-current={other === document ? "page" : undefined}
              className={other === document ? "font-semibold text-slate-900" : "text-brand-700 underline"}
            >
              {t(`nav.${other}`)}
            </Link>
          ))}
        </nav>
        <h1 className="text-3xl font-bold">{t(`${document}.title`)}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("updated")}</p>
        <p className="mt-6 text-slate-700">{t(`${document}.intro`)}</p>
        <div className="mt-6">
          <Controller />
        </div>
        {sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="mt-8">
            <h2 id={`${section.id}-title`} className="text-xl font-semibold">
              {section.title}
            </h2>
            <ul className="mt-3 list-disc space-y-2 pl-6 text-slate-700">
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </section>
        ))}
        <p className="mt-10">
          <Link to="/" className="font-medium text-brand-700 underline">
            {t("back")}
          </Link>
        </p>
      </article>
    </PageShell>
  );
}
