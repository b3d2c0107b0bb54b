-- The sections written before `filled` existed, and only those: what the server judges at start
-- (`Plans::fill_section_flags`) it finds through this index, so a start after the first reads no
-- section at all instead of scanning every plan's (issue 47).
create index plan_sections_unjudged_idx on plan_sections (plan_id) where filled is null;
