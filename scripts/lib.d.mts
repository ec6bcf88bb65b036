export declare const ROOT: string;
export declare function log(message: string): void;
export declare function freePort(): Promise<number>;
export declare function freePorts(count: number): Promise<number[]>;
export declare function run(command: string, args: string[], options?: object): Promise<number>;
export declare function runOrThrow(command: string, args: string[], options?: object): Promise<void>;
