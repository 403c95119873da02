// The live population (issue 22): to be written.
