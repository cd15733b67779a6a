// The revenue-file fixtures of tests/fixtures/revenue (issue 29), as text inside workerd (no file
// system there: Vite inlines them).
import resaved from "../../fixtures/revenue/resaved-own-format-2031-03.csv?raw";
import studio from "../../fixtures/revenue/studio-export-2031-03.csv?raw";
import youtube from "../../fixtures/revenue/youtube-content-owner-2031-03.csv?raw";

export default { youtube, resaved, studio };
