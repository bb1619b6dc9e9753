/**
 * PostgreSQL's baseline, part 2: the triggers that keep the invariants SQLite's triggers keep at schema
 * 180, as PL/pgSQL functions. The event log and the audit log are append-only, a new audit entry
 * follows the last one in the hash chain, a curation act is never changed (except to record its audit
 * entry once), and each participant's counters (recordings, done, needing attention, first and last
 * recording, last usable) follow their recordings and analyses.
 */
const APPEND_ONLY = `
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$`;

const AUDIT_CHAIN = `
CREATE FUNCTION audit_log_follows_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE last audit_log%ROWTYPE;
BEGIN
  -- One writer at a time extends the chain: the next entry must see the last one.
  LOCK TABLE audit_log IN SHARE ROW EXCLUSIVE MODE;
  SELECT * INTO last FROM audit_log ORDER BY id DESC LIMIT 1;
  IF NEW.id IS NULL OR NEW.id <= coalesce(last.id, 0) OR NEW.hash IS NULL OR length(NEW.hash) <> 64
     OR NEW.prev_hash IS DISTINCT FROM coalesce(last.hash, '') THEN
    RAISE EXCEPTION 'audit_log is append-only: a new entry follows the last one in the chain';
  END IF;
  RETURN NEW;
END $$`;

const CURATION_UNCHANGED = `
CREATE FUNCTION curation_act_unchanged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (OLD.audit_id IS NULL AND NEW.audit_id IS NOT NULL
          AND (to_jsonb(NEW) - 'audit_id') = (to_jsonb(OLD) - 'audit_id')) THEN
    RAISE EXCEPTION 'curation_acts are never changed';
  END IF;
  RETURN NEW;
END $$`;

const PARTICIPANT_COUNTS = `
CREATE FUNCTION refresh_participant_counts(pid bigint) RETURNS void LANGUAGE sql AS $$
  UPDATE participants SET (rec_count, rec_attention, first_recording_at, last_recording_at) = (
    SELECT count(*),
           count(*) FILTER (WHERE r.upload_state IN ('refused_locally', 'rejected', 'upload_uncertain', 'duplicate')),
           min(r.recorded_at) FILTER (WHERE r.excluded_at IS NULL),
           max(r.recorded_at) FILTER (WHERE r.excluded_at IS NULL)
    FROM recordings r WHERE r.participant_id = pid AND r.upload_state <> 'cancelled'
  ), rec_done = (
    SELECT count(*) FROM recordings r WHERE r.participant_id = pid AND r.upload_state = 'uploaded' AND NOT EXISTS (
      SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state NOT IN ('completed', 'not_requested'))
  ), last_usable_at = (
    SELECT max(r.recorded_at) FROM recordings r WHERE r.participant_id = pid AND r.upload_state = 'uploaded'
      AND r.excluded_at IS NULL
      AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state = 'completed')
  ) WHERE id = pid
$$`;

const RECORDING_COUNTS = `
CREATE FUNCTION recording_changes_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM refresh_participant_counts(OLD.participant_id); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.participant_id <> OLD.participant_id) THEN
    PERFORM refresh_participant_counts(NEW.participant_id);
  END IF;
  RETURN NULL;
END $$`;

const ANALYSIS_COUNTS = `
CREATE FUNCTION analysis_changes_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_participant_counts(r.participant_id)
    FROM recordings r WHERE r.id = CASE TG_OP WHEN 'DELETE' THEN OLD.recording_id ELSE NEW.recording_id END;
  RETURN NULL;
END $$`;

export const BASELINE_TRIGGERS: readonly string[] = [
  APPEND_ONLY,
  'CREATE TRIGGER event_log_append_only BEFORE UPDATE OR DELETE ON event_log FOR EACH ROW EXECUTE FUNCTION refuse_change()',
  'CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_change()',
  'CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log EXECUTE FUNCTION refuse_change()',
  AUDIT_CHAIN,
  'CREATE TRIGGER audit_log_append_only BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_follows_chain()',
  CURATION_UNCHANGED,
  'CREATE TRIGGER curation_acts_no_update BEFORE UPDATE ON curation_acts FOR EACH ROW EXECUTE FUNCTION curation_act_unchanged()',
  PARTICIPANT_COUNTS,
  RECORDING_COUNTS,
  `CREATE TRIGGER participant_counts_by_recording AFTER INSERT OR DELETE OR UPDATE OF upload_state, recorded_at, participant_id, excluded_at
     ON recordings FOR EACH ROW EXECUTE FUNCTION recording_changes_counts()`,
  ANALYSIS_COUNTS,
  `CREATE TRIGGER participant_counts_by_analysis AFTER INSERT OR DELETE OR UPDATE OF state
     ON analyses FOR EACH ROW EXECUTE FUNCTION analysis_changes_counts()`,
];
