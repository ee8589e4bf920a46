// Renders kbserver's API description with Redoc. Part of kbserver; the
// renderer itself is redoc.standalone.js (see README.md beside this file).
Redoc.init(
  "openapi.json",
  {
    expandResponses: "200,201",
    jsonSampleExpandLevel: 3,
    sortPropsAlphabetically: false,
    theme: { typography: { fontFamily: "system-ui, sans-serif", headings: { fontFamily: "system-ui, sans-serif" } } },
  },
  document.getElementById("redoc"),
);
