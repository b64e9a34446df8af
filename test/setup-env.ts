// Before any test file imports the server: the game registry reads this when it is first built.
process.env.ALLOW_TEST_GAMES = '1';
