import { Search } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { BusinessPlanStatus, SubscriptionFilter } from "@/gen/socio/v1/admin_pb";
import { formatDate, formatDateTime } from "@/lib/dates";
import { currentLanguage } from "@/lib/i18n";
import { formatHandle } from "@/lib/phone";
import { TableScroll } from "@/components/ui/table-scroll";

import { useUsers } from "../api/use-admin";
import { UserDialog } from "./user-dialog";
import { PLAN_STATUS_KEYS, TierBadge } from "./user-labels";

const FILTERS = [
  { value: SubscriptionFilter.ALL, key: "all" },
  { value: SubscriptionFilter.FREE, key: "free" },
  { value: SubscriptionFilter.PRO, key: "pro" },
] as const;

/** The users directory: search (name or phone), filter by plan, 20 a page, details per user. */
export function UsersTab() {
  const { t, i18n } = useTranslation("admin");
  const language = currentLanguage(i18n);
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<SubscriptionFilter>(SubscriptionFilter.ALL);
  const [filterChanged, setFilterChanged] = useState(false);
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const users = useUsers(filter, search, page);

  // Searching waits for a pause in typing; a new search starts from page 1.
  useEffect(() => {
    const next = typed.trim();
    if (next === search) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed, search]);

  const filterBroken = filterChanged && users.isError;
  useEffect(() => {
    if (filterBroken) toast.error(t("toast.filterFailed"), { id: "admin-filter" });
  }, [filterBroken, t]);

  const totalPages = users.data?.totalPages ?? 0;
  const list = users.data?.users ?? [];

  return (
    <section aria-label={t("tabs.users")} className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <label className="flex-1">
          <span className="sr-only">{t("users.search")}</span>
          <span className="relative block">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-500" />
            <input
              type="search"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              placeholder={t("users.search")}
              maxLength={100}
              className="h-11 w-full rounded-xl border border-slate-300 pr-3 pl-9 focus:border-brand-600"
            />
          </span>
        </label>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          {t("users.filter")}
          <select
            value={filterBroken ? "error" : String(filter)}
            onChange={(e) => {
              setFilter(Number(e.target.value) as SubscriptionFilter);
              setFilterChanged(true);
              setPage(1);
            }}
            className="h-11 rounded-xl border border-slate-300 bg-white px-3"
          >
            {filterBroken && (
              <option value="error" disabled>
                {t("users.filterError")}
              </option>
            )}
            {FILTERS.map((f) => (
              <option key={f.key} value={String(f.value)}>
                {t(`users.${f.key}`)}
              </option>
            ))}
          </select>
        </label>
      </div>

      <p className="text-sm text-slate-600" aria-live="polite">
        {users.data ? t("users.count", { count: users.data.total }) : users.isPending ? t("loading", { ns: "common" }) : ""}
      </p>

      {users.isError && !filterBroken && (
        <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
          {t("users.loadFailed")}
        </p>
      )}

      <TableScroll label={t("tabs.users")} className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="w-full min-w-[56rem] text-left text-sm">
          <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
            <tr>
              {(["id", "name", "phone", "plan", "messages", "businessPlan", "createdAt", "lastActiveAt", "actions"] as const).map((c) => (
                <th key={c} scope="col" className="px-4 py-3 font-semibold">
                  {t(`users.columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.map((user) => (
              <tr key={user.id} className="hover:bg-slate-50">
                <td className="px-4 py-3 font-mono text-xs text-slate-600" title={user.id}>
                  {user.id.slice(0, 8)}
                </td>
                <td className="px-4 py-3 font-medium">{user.name || t("users.unnamed")}</td>
                <td className="px-4 py-3 whitespace-nowrap">{formatHandle(user.phoneNumber, user.username)}</td>
                <td className="px-4 py-3">
                  <TierBadge user={user} />
                </td>
                <td className="px-4 py-3 tabular-nums">{user.totalMessages}</td>
                <td className="px-4 py-3 whitespace-nowrap">
                  {t(`users.planStatus.${PLAN_STATUS_KEYS[user.businessPlanStatus]}`)}
                  {user.businessPlanStatus !== BusinessPlanStatus.NONE && <span className="ml-1 text-slate-500">({user.planCompletionPercentage}%)</span>}
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{formatDate(user.createdAt, language)}</td>
                <td className="px-4 py-3 whitespace-nowrap">{user.lastActiveAt ? formatDateTime(user.lastActiveAt, language) : t("users.never")}</td>
                <td className="px-4 py-3">
                  <Button size="sm" variant="secondary" onClick={() => setOpenId(user.id)} aria-label={`${t("users.details")}: ${user.name || user.phoneNumber || user.username}`}>
                    {t("users.details")}
                  </Button>
                </td>
              </tr>
            ))}
            {users.data && list.length === 0 && (
              <tr>
                <td colSpan={9} className="px-4 py-10 text-center text-slate-600">
                  {t("users.empty")}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </TableScroll>

      {totalPages > 1 && (
        <nav aria-label={t("users.pagination")} className="flex items-center justify-between gap-4">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t("users.previous")}
          </Button>
          <span className="text-sm text-slate-700">{t("users.page", { page, pages: totalPages })}</span>
          <Button variant="secondary" size="sm" disabled={page >= totalPages} onClick={() => setPage(page + 1)}>
            {t("users.next")}
          </Button>
        </nav>
      )}

      {openId && <UserDialog id={openId} onClose={() => setOpenId(null)} />}
    </section>
  );
}
