import { fuzzShard } from '../support/fuzz/suite';

// Shard 2 of FUZZ_SHARDS: every route's bad inputs, against a runtime and table of its own (suite.ts).
fuzzShard(1);
