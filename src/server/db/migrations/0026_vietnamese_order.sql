-- Vietnamese alphabetical order for the lists people read (issue 23.14): a ă â b c d đ e ê … with
-- "Đông" after "Dung" and before "Em", where the database's C collation puts Đ after Z. PGlite
-- has no ICU collation, so the order is a key: each letter (any case, any tone) becomes one ASCII
-- character in the alphabet's order; tones are left to the tie-break on the name itself.
-- The same order as compareVietnamese() in src/shared/vietnamese.ts (an API test compares them).
CREATE FUNCTION vi_sort_key(name text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT translate(name,
    'aàáảãạAÀÁẢÃẠăằắẳẵặĂẰẮẲẴẶâầấẩẫậÂẦẤẨẪẬbBcCdDđĐeèéẻẽẹEÈÉẺẼẸêềếểễệÊỀẾỂỄỆfFgGhHiìíỉĩịIÌÍỈĨỊjJkKlLmMnNoòóỏõọOÒÓỎÕỌôồốổỗộÔỒỐỔỖỘơờớởỡợƠỜỚỞỠỢpPqQrRsStTuùúủũụUÙÚỦŨỤưừứửữựƯỪỨỬỮỰvVwWxXyỳýỷỹỵYỲÝỶỸỴzZ',
    'AAAAAAAAAAAABBBBBBBBBBBBCCCCCCCCCCCCDDEEFFGGHHHHHHHHHHHHIIIIIIIIIIIIJJKKLLMMMMMMMMMMMMNNOOPPQQRRSSSSSSSSSSSSTTTTTTTTTTTTUUUUUUUUUUUUVVWWXXYYZZaaaaaaaaaaaabbbbbbbbbbbbccddeeffffffffffffgg') $$;
