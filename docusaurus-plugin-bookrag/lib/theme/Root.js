import { jsx as _jsx, Fragment as _Fragment, jsxs as _jsxs } from "react/jsx-runtime";
import Launcher from './Bookrag/Launcher';
export default function Root({ children }) {
    return (_jsxs(_Fragment, { children: [children, _jsx(Launcher, {})] }));
}
