-- Whether a plan section has anything filled in, as the plan itself says it
-- (`plan::sections::has_content`: its data, read as its message, is not empty), kept with the
-- section at every write so the admin's list of users says "in progress" by the same rule as the
-- plan (issue 47). Null for sections written before this column: the server fills them at start
-- (`Plans::fill_section_flags`).
alter table plan_sections add column filled integer;
