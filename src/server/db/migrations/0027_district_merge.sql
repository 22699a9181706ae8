-- Merging two districts (issue 23.1, decision 023) moves the schools of one into the other. A
-- contestant's (school, district) pair references its school (0001), so that the pair can never
-- disagree; the school's district now carries its pupils' along when it changes.
ALTER TABLE contestants DROP CONSTRAINT contestants_school_id_district_id_fkey;
ALTER TABLE contestants ADD CONSTRAINT contestants_school_id_district_id_fkey
  FOREIGN KEY (school_id, district_id) REFERENCES schools (id, district_id) ON UPDATE CASCADE;
