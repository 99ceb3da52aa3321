-- test
CREATE TABLE t(x);
