import { sql, type Kysely } from 'kysely';

/**
 * The support chat (issue 6 item 7, SPEC §1 'a chat support widget exists'): one
 * `support_conversations` row per owner (user_id unique), and `support_messages` written by the owner or by
 * support staff. A message's `id` is an increasing integer: it is the server-sent event id the owner's
 * stream resumes from (Last-Event-ID). `(conversation_id, client_message_id)` is unique so a retried send
 * never stores a message twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_conversations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_message_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('support_conversations_last_message_idx')
    .on('support_conversations')
    .column('last_message_at')
    .execute();
  await db.schema
    .createTable('support_messages')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('conversation_id', 'uuid', (c) =>
      c.notNull().references('support_conversations.id').onDelete('cascade'),
    )
    .addColumn('author', 'text', (c) => c.notNull().check(sql`author in ('owner', 'staff')`))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('client_message_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('support_messages_conversation_client_key', ['conversation_id', 'client_message_id'])
    .execute();
  await db.schema
    .createIndex('support_messages_conversation_idx')
    .on('support_messages')
    .columns(['conversation_id', 'id'])
    .execute();
}

/** Drops what {@link up} created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('support_messages').execute();
  await db.schema.dropTable('support_conversations').execute();
}
