-- The business plan's generated documents (each generation a new version) and auto-saved drafts.

create table plan_documents (
    id text primary key,
    plan_id text not null references business_plans (id) on delete cascade,
    version integer not null,
    language text not null,
    markdown text not null,
    -- the document's content as JSON, from which the PDF is rendered
    model text not null,
    generated_at bigint not null,
    unique (plan_id, version)
);

create table plan_drafts (
    plan_id text not null references business_plans (id) on delete cascade,
    -- what the user was editing ("general" when the client does not say)
    context text not null,
    data text not null,
    saved_at bigint not null,
    primary key (plan_id, context)
);
