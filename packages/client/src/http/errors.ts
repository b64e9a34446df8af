import { z } from 'zod';

// The one error shape every HTTP refusal has (PROTOCOL.md section 2).

/** `{statusCode, code, message}`. `codes` lists the codes this answer may carry, for the API document. */
export function errorBody(codes: string) {
  return z.object({
    statusCode: z.int(),
    code: z.string().meta({ description: codes }),
    message: z.string().meta({ description: 'for a person; a 400 names the offending field' }),
  });
}

export const ErrorBody = errorBody("the refusal's code");
export type ErrorBody = z.infer<typeof ErrorBody>;

/** `bad_csv` also says where the problem is: the file's line (1 is the header) and column (1 is the question). */
export const BadCsvBody = errorBody('bad_csv | bad_data').extend({
  line: z.int().min(1).optional(),
  column: z.int().min(1).optional(),
});
export type BadCsvBody = z.infer<typeof BadCsvBody>;
