/** Every line of user-facing CLI text, in one place. */
export const messages = {
  unknownCommand: (name: string) => `Unknown command "${name}". Run \`trellis --help\` for the list.`,
  unexpected: (message: string) => `Unexpected error: ${message}`,
};
